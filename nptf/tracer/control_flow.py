"""What converted ``if``/``while``/``for`` statements call while a function is traced.

Each helper looks at its condition or iterable: a plain Python value keeps
plain Python semantics (the branch runs, the loop runs in Python); a traced
value becomes an IR ``cond`` or ``while`` whose sub-graphs are traced once.
Variables assigned in the statement travel as explicit state; arrays written
in place inside a branch or loop body are found by logging the writes, and
are carried too.
"""
from __future__ import annotations

import bisect
import builtins
import collections
import collections.abc
import contextlib
import contextvars
import functools
import heapq
import inspect
import itertools
import numbers
import operator
import sys
import types
import warnings
import weakref

import numpy as np

from .. import tree
from ..budget import current_budget
from ..errors import (DynamicShapeError, Error, TracerConversionError, UnsupportedError,
                      in_user_code, unsupported, user_location, warn_user)
from ..graph_ir import ArrayType
from ..graph_ir.ir import Graph, Literal, Var
from ..graph_ir.ops_checks import ERRORS, RAISED_WHEN_READ
from . import numpy_api as api
from . import python_numbers
from .sites import assume_path, decline_loop, python_loop
from .shadow import guess, wanted_inside
from .shadow import value as shadow_value
from .builder import CURRENT_BUILDER as _current
from .builder import building, current_builder
from .dynamic_slices import loop_counter
from .growing_lists import (MIXED, GrowingList, RowList, RowOf, appended_held, can_grow,
                            common_item, element_of_kind, grown,
                            is_tuple_kind, item_kinds, item_of, joined_item,
                            list_of_rows, numbers_of_mixed_kinds, numbers_of_several_types,
                            reachable_elsewhere, restored, several_types_read)
from .layouts import UNKNOWN
from .list_buckets import BucketTable, TypedByAppend, buckets_before, untyped
from .ragged_lists import RaggedList, ragged_spec
from .list_tables import GrowingTable, grown_table, table_item
from .printing import Text, refuse, text_builtin
from .python_math import math_function
from .indexing import dim_size, getitem
from .maybe_keys import MaybeKeys, choosing_with, maybe_keys_within, widened
from .namespace import items_in_order
from .numpy_random import UNCOUNTED as _UNCOUNTED
from .numpy_random import counted_loop
from .python_lists import MADE_AT, ComputedList, ListTracer, SplitPieces, decline_made
from .python_sets import TracedSet, traced_set
from .side_effects import (Snapshot, carrying_attributes, held_only_at, restore_state,
                           same_state, saved_state)
from .traced_dicts import (DictView, ReadOnlyDict, TracedDict, empty_of, extremum_key, joined,
                           listed, python_class_of, sorted_list)
from ..graph_ir.walk import all_eqns, has_effects
from .tracer import (CHECKS_MET, GRAPH_LOOPS, HASHED, IN_GRAPH_LOOP, KIND_ARRAY, KIND_NONE,
                     KIND_PYTHON,
                     KIND_SCALAR, KIND_UNBOUND, PYTHON_TYPES, Tracer, assumed_value, check_bound,
                     RankChoice, contains_tracer, emit, maybe_none, settled, with_rank_choice,
                     numpy_class_of, python_kind, python_type_of, to_tracer)
from .holders import held_elsewhere
from .views import (defined_in, held_why, is_c_ordered, mark_ambiguous, restore,
                    set_buffer, write_frame)

UNROLL_LIMIT = contextvars.ContextVar("nptf_unroll_limit", default=8)
# Copies of the code being traced that enclosing unrolled loops make (their trip counts
# multiplied; a graph loop's body is one copy per copy of the loop): nested short loops
# unroll only while this stays within NESTED_UNROLL times the limit, so eight nested
# loops of 4 make eight nested graph loops, not a graph of 65,536 copies.
_UNROLLED = contextvars.ContextVar("nptf_unrolled_copies", default=1)
NESTED_UNROLL = 1
_in_graph_control_flow = contextvars.ContextVar("nptf_in_graph_cf", default=False)


class ControlFlowError(UnsupportedError, TypeError):
    """A variable cannot be carried through a compiled branch or loop as written."""


def _python_object_in_branch(message):
    """A branch on a traced value changes a Python object (``losses.append(...)`` under
    ``if ep % 50 == 0`` in a graph loop): a loop of known length around it may unroll,
    where the index is a Python int and the condition is Python's (``_index_loop``)."""
    error = ControlFlowError(message)
    error.python_object_in_branch = True
    return error


class Undefined:
    """A variable that has no value on this path (assigned in only one branch, or only
    inside a loop). Using it is an error that says where it came from."""

    def __init__(self, name, where="", like=None):
        # ``like``: the value a path that assigns it gives (a loop carries the variable
        # from a stand-in of its type: ``unbound_stand_in``).
        self.name, self.where, self.like = name, where, like

    def _fail(self, *args, **kwargs):
        if not self.where:
            # Never assigned on the path Python took (a loop that ran no times): Python's
            # own error, raised at the user's read, so a traced path that raises it is one
            # NumPy raises on too (``_raised_by_user_code``).
            error = UnboundLocalError(f"cannot access local variable '{self.name}' where it "
                                      f"is not associated with a value\n  at {user_location()}")
            error.nptf_read_unbound = True
            raise error
        raise ControlFlowError(
            f"variable `{self.name}` is used, but it is only assigned on some paths of the "
            f"compiled control flow at {self.where or 'an earlier line'}. Give `{self.name}` a "
            f"value before the `if`/loop (e.g. `{self.name} = np.zeros_like(...)`).\n"
            f"  at {user_location()}")

    __bool__ = __index__ = __int__ = __float__ = __len__ = __iter__ = __getitem__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __array__ = __getattr__ = _fail

    def __repr__(self):
        return f"<undefined {self.name}>"


class Unread(Undefined):
    """An item of a tuple, list or dict that is None on this path (``best = None``, then
    ``best = (f, t)`` on the other): its flag says None, so the item is never read."""


def ld(scope, name):
    """The current value of ``name`` (Undefined if it has none yet)."""
    return scope.get(name, Undefined(name))


def rd(value):
    """A read of a variable some path may reach before any assignment (``t_on`` set
    under ``if ratio[k] > on`` in a loop, read under ``elif``, or copied by ``last =
    t_on``): where it is a value the data may have left unassigned, Python's
    UnboundLocalError when the graph runs, wherever the read leads (a copy to another
    name carries no check of its own). A number read so is, past that check, a number of
    the one kind the paths that assign it give (``triggers.append((t_on, k))`` appends
    an int); an array stays the object read, which other names may share. Any other
    value is itself; a variable no path assigned yet raises here, as Python does."""
    if isinstance(value, Undefined) and type(value) is Undefined:
        value._fail()
    if not isinstance(value, Tracer) or isinstance(value, ListTracer) or \
            value.kinds is None or KIND_UNBOUND not in value.kinds:
        return value
    check_bound(value)
    rest = value.kinds - {KIND_UNBOUND}
    if value.ndim or value.choice is not None or len(rest) > 1 or \
            (not rest and not (value.is_scalar or value.type.weak)):
        return value
    # Without another kind (``unbound_stand_in``) the value's own type says which.
    (kind,) = rest or {_kind_of(Tracer(value.carried_atom(), is_scalar=value.is_scalar))}
    if kind == KIND_SCALAR:
        return Tracer(value.carried_atom(), is_scalar=True)
    if kind >= KIND_PYTHON:
        return element_of_kind(Tracer(value.carried_atom(), is_scalar=True),
                               PYTHON_TYPES[kind - KIND_PYTHON])
    return value


def _is_traced(x):
    # A list argument's truth is its length's, known now.
    return isinstance(x, Tracer) and not isinstance(x, ListTracer)


def _concrete_condition(c):
    """A Python bool for a concrete condition, or the scalar Tracer of a traced one."""
    if isinstance(c, (GrowingList, TracedDict, RaggedList)):
        c = c.is_nonempty()
    c = settled(c)
    if _is_traced(c) and maybe_none(c) and c.size == 1 and \
            not isinstance(c.kind_flag, Literal):
        # ``if e:`` of a value None on some paths: Python's bool(None) is False, and the
        # value's own truth reads no None (``e * 0.5 if e else None``).
        value = Tracer(c.bound_atom(), is_scalar=c.is_scalar)
        not_none = emit("not_equal", [Tracer(c.kind_flag), np.int8(KIND_NONE)])
        return api.reshape_to(np.logical_and(not_none, api.astype(value, np.bool_)), ())
    if _is_traced(c):
        known = c.known_value()
        if known is not None:
            # Computed from constants while tracing: Python's decision, as NumPy's.
            return bool(known)
        if c.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             f"ambiguous. Use a.any() or a.all()\n  at {user_location()}")
        return api.reshape_to(api.astype(c, np.bool_), ())
    return bool(c)


# ------------------------------------------------------------- logic helpers
def _python_bool_of(flags, combine=np.logical_or):
    """Python's bool of the traced bools ``flags`` combined (any of them, by default): a
    weak bool in the IR; False for none."""
    if not flags:
        return combine is np.logical_and
    value = functools.reduce(combine, flags)
    return emit("convert", [value], {"dtype": np.dtype(bool), "weak": True}, scalar=True)


def eq_(a, b):
    """``a == b``; of tuples or lists holding traced numbers, Python's item-by-item test
    made one traced bool; of a string chosen by the data and a string, too."""
    got = _choice_equal(a, b)
    if got is NotImplemented:
        got = _sequences_equal(a, b)
    return a == b if got is NotImplemented else got


def ne_(a, b):
    got = _choice_equal(a, b)
    if got is NotImplemented:
        got = _sequences_equal(a, b)
    return a != b if got is NotImplemented else not_(got)


def _choice_equal(a, b):
    """Whether a string one of static strings at a traced position (``Text.choice``)
    equals a string: a traced bool; NotImplemented for other operands."""
    if isinstance(b, Text) and not isinstance(a, Text):
        a, b = b, a
    chosen = a.choice() if isinstance(a, Text) else None
    if chosen is None or not (isinstance(b, str) or b is None):
        return NotImplemented
    seq, k = chosen
    return _python_bool_of([k == i for i, s in enumerate(seq)
                            if (s is None if b is None else s == b)])


def _sequences_equal(a, b):
    """Whether tuples or lists ``a`` and ``b`` of numbers, some traced, are equal (a
    Python bool, or a traced one); NotImplemented where Python's own ``==`` answers."""
    if type(a) not in (tuple, list) or type(a) is not type(b) or \
            not (contains_tracer(a) or contains_tracer(b)):
        return NotImplemented
    if len(a) != len(b):
        return False
    hits = []
    for x, y in zip(a, b):
        if x is y:
            continue
        if type(x) in (tuple, list) or type(y) in (tuple, list):
            got = _sequences_equal(x, y)
            if got is NotImplemented:
                if contains_tracer([x, y]):
                    return NotImplemented
                got = x == y
        elif not (_is_traced(x) or _is_traced(y)):
            got = x == y
        elif (_is_traced(x) and x.ndim) or (_is_traced(y) and y.ndim):
            return NotImplemented       # an array item: NumPy's ambiguity, as Python meets it
        elif not all(_is_traced(v) or isinstance(v, _NUMBERS) for v in (x, y)):
            got = False                 # a number never equals a string or None
        else:
            got = _concrete_condition(x == y)
        if not _is_traced(got):
            if not got:
                return False
            continue
        hits.append(got)
    return _python_bool_of(hits, np.logical_and)


def not_(x):
    if isinstance(x, (GrowingList, TracedDict, RaggedList)):
        x = x.is_nonempty()
    if _is_traced(x):
        # Python's ``not`` gives a Python bool: a weak bool in the IR.
        c = _concrete_condition(x)
        if not isinstance(c, Tracer):
            return not c
        return emit("logical_not", [c], {"weak": True})
    return not x


def any_of(*flags):
    """Whether a loop stops: any of its flags (``break``, ``return``) set, each a Python
    bool or a traced one."""
    if any(not _is_traced(f) and f for f in flags):
        return True
    traced = [_concrete_condition(f) for f in flags if _is_traced(f)]
    if not traced:
        return False
    if len(traced) == 1:
        return traced[0]
    value = functools.reduce(np.logical_or, traced)
    return emit("convert", [value], {"dtype": np.dtype(bool), "weak": True}, scalar=True)


def contains(item, container):
    """``item in container``. For an array, NumPy's ``(container == item).any()`` (a
    traced bool where the data decide); for a list or tuple holding traced numbers,
    Python's test of each item (``is``, then ``==``) made one traced bool; anything else
    is Python's own ``in``."""
    if isinstance(container, (TracedDict, MaybeKeys)):
        return container.contains(item)
    if _is_traced(container):
        found = api.asarray(container == item).any()
        return emit("convert", [found], {"dtype": np.dtype(bool), "weak": True}, scalar=True)
    if type(container) in (list, tuple) and (_is_traced(item) or any(map(_is_traced, container))):
        hits = []
        for v in container:
            if v is item:
                return True
            if not (_is_traced(v) or _is_traced(item)):
                if v == item:
                    return True
                continue
            if _is_traced(v) and v.ndim or _is_traced(item) and item.ndim:
                break       # an array item: Python's own ``in`` says what NumPy does
            hits.append(_concrete_condition(v == item))
        else:
            return _python_bool_of(hits)
    if _is_traced(item) and item.ndim == 0 and isinstance(
            container, (collections.abc.Set, collections.abc.Mapping,
                        collections.abc.ValuesView)):
        # A set, a dict's keys or values: Python tests a number by hash, then ``==``; a
        # traced number equals only the numbers of the container (never a string or a
        # tuple), each tested in the graph (a dict's values may be traced numbers).
        numbers = [v for v in container
                   if isinstance(v, _NUMBERS) or _is_traced(v) and v.ndim == 0]
        if len(numbers) != len(container) and not all(
                isinstance(v, (str, bytes, tuple, _NUMBERS)) for v in container):
            return item in container     # Python's hash(): nptf's error says why
        return _python_bool_of([_concrete_condition(item == v) for v in numbers])
    return item in container


_NUMBERS = (bool, int, float, complex, np.number, np.bool_)


def _short_circuit(thunks, is_and, truth_only, where):
    """``a and b and ...`` (``is_and``) or ``a or b or ...``, as Python evaluates them: an
    operand only while the ones before it are true (``and``) or false (``or``); the value
    is the operand that stopped it, or the last one. Past a traced operand, the rest run
    in a traced branch taken where Python would run them, so what they check when the
    graph runs (an index past the end in ``i < n and x[i] > 0``) counts only there. The
    value is then one of two operands, which must agree in type and shape as any traced
    ``if``'s; where only the truth counts (``truth_only``: an ``if``/``while`` test,
    ``not``'s operand, a comprehension's filter) it is a bool whatever the operands."""
    value = thunks[0]()
    for k, thunk in enumerate(thunks[1:], 1):
        if truth_only and isinstance(value, (GrowingList, TracedDict, RaggedList)):
            # ``while stack and stack[-1] > v``: whether the list has items, as the data say.
            value = value.is_nonempty()
        if _is_traced(value) and value.known_value() is None:
            first = value
            rest = lambda: _short_circuit(thunks[k:], is_and, truth_only, where)  # noqa: E731
            if truth_only:
                go_on, stop = (lambda: _truth(rest())), (lambda: not is_and)
            else:
                go_on, stop = rest, (lambda: first)
            true_thunk, false_thunk = (go_on, stop) if is_and else (stop, go_on)
            if truth_only:
                return if_exp(first, true_thunk, false_thunk, where)
            return _operand_chosen("and" if is_and else "or", first, true_thunk, false_thunk,
                                   where)
        if (not value) if is_and else value:
            return value
        value = thunk()
    return value


def and_(*thunks, where=""):
    """The value of ``a and b and ...`` (``_short_circuit``)."""
    return _short_circuit(thunks, True, False, where)


def or_(*thunks, where=""):
    """The value of ``a or b or ...`` (``_short_circuit``)."""
    return _short_circuit(thunks, False, False, where)


def and_test(*thunks, where=""):
    """The truth of ``a and b and ...``, where only that counts (``_short_circuit``)."""
    return _short_circuit(thunks, True, True, where)


def or_test(*thunks, where=""):
    """The truth of ``a or b or ...``, where only that counts (``_short_circuit``)."""
    return _short_circuit(thunks, False, True, where)


def _operand_chosen(op, first, true_thunk, false_thunk, where):
    """The value of ``and``/``or`` past a traced first operand: one of two operands, which
    the graph can give only where both have one type and shape."""
    try:
        return if_exp(first, true_thunk, false_thunk, where)
    except ControlFlowError:
        raise ControlFlowError(
            f"the value of `a {op} b` is `a` or `b` depending on the data, and here they differ "
            f"in type or shape ({where}). Write the condition out (`np.where(...)` or an "
            f"`if` statement), or use `bool(a) {op} bool(b)` where only the truth is meant."
        ) from None


def _truth(value):
    """Python's truth of an operand: a traced bool for a traced value."""
    return _concrete_condition(value) if _is_traced(value) or \
        isinstance(value, (GrowingList, RaggedList)) else bool(value)


def if_exp(cond, true_thunk, false_thunk, where=""):
    c = _concrete_condition(cond)
    if not isinstance(c, Tracer):
        return true_thunk() if c else false_thunk()
    (out,) = if_stmt(c, lambda v: (true_thunk(),), lambda v: (false_thunk(),), (None,),
                     ("<expression>",), where)
    return out


choosing_with(if_exp)


# ------------------------------------------------------------ sub-graphs
def _atom_of(value, name, where):
    if isinstance(value, Tracer):
        return value.carried_atom()
    if type(value) is bool:
        # A Python bool on a path (``found = True``): the value after the `if` or loop is
        # a Python bool, as Python's, whichever path the data take.
        return Literal(value, ArrayType((), np.dtype(bool), True))
    if isinstance(value, (bool, int, float, complex, np.generic)) and not isinstance(value, Undefined):
        return api.to_atom(value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return api.to_atom(value)       # a NumPy array the function made: a constant
    what = "the return value" if name.startswith("_nptf__val") else f"variable `{name}`"
    kind = "None on some paths and a container on others" if isinstance(value, NoneOr) else \
        "a dict whose keys the data choose" if isinstance(value, MaybeKeys) else \
        f"a {type(value).__name__}"
    raise ControlFlowError(f"{what} holds {kind}, which cannot change inside compiled control "
                           f"flow; only arrays and numbers can, and None where the other paths "
                           f"give an array, a number, or containers of one structure.\n"
                           f"  at {where}")


def _c_ordered(value):
    """Whether a variable's value is certainly a C-ordered array (or not an array)."""
    if isinstance(value, Tracer):
        return is_c_ordered(value)
    return not isinstance(value, np.ndarray) or value.ndim < 2 or value.flags.c_contiguous


def _type_of(value, name, where):
    t = _atom_of(value, name, where).type
    if isinstance(value, GrowingList) and not isinstance(value, GrowingTable) and \
            t.shape[0] is not None:
        # How many items it holds, only the data say, even where this trace knows it (no
        # append yet, or none taken away): the body traced on it must not take that
        # length as given (``stack[-1]`` of a list empty only before the first append).
        # A table keeps its rows.
        t = ArrayType((None,) + t.shape[1:], t.dtype, t.weak)
    return t


def _trace(fn, in_types, capture):
    """Trace ``fn`` on placeholders of ``in_types``; returns (builder, outputs, their values
    at the end of the trace, write frame).

    ``capture(placeholders)`` turns placeholder tracers into ``fn``'s arguments."""
    token = _in_graph_control_flow.set(True)
    try:
        with write_frame() as frame, building() as builder:
            placeholders = [Tracer(builder.new_input(t), is_scalar=t.ndim == 0) for t in in_types]
            try:
                outs = fn(*capture(placeholders))
                # A view's value is read from its buffer: read here, into this trace's
                # graph, not into the enclosing one (where the trace's vars do not exist).
                values = [_snapshot_tracer(o) if isinstance(o, Tracer) else o for o in outs]
                # Arrays in containers too, for an `if` that merges them one by one
                # (loops compare the containers themselves, by identity).
                inside = {i: _snapshot_value(o) for i, o in enumerate(outs)
                          if type(o) in (tuple, list, dict) or isinstance(o, MaybeKeys)}
            except BaseException:
                # Writes the trace made before it failed would leave outer arrays holding
                # values of a graph that is thrown away (a loop retraced unrolled read them).
                restore(frame)
                raise
        return builder, outs, values, frame, inside
    finally:
        _in_graph_control_flow.reset(token)


def _close(builder, output_atoms):
    """A closed Graph: outer vars it uses become extra inputs (returned as ``free``)."""
    defined = set(builder.inputs)
    free = []
    for eqn in builder.eqns:
        for a in eqn.inputs:
            if isinstance(a, Var) and a not in defined and a not in free:
                free.append(a)
        defined.update(eqn.outputs)
    for a in output_atoms:
        if isinstance(a, Var) and a not in defined and a not in free:
            free.append(a)
    graph = Graph(tuple(builder.inputs), tuple(builder.eqns), tuple(output_atoms))
    return graph, free


def _with_inputs(graph, extra):
    """``graph`` taking the extra inputs ``extra`` (outer vars) after its own."""
    mapping = {}
    inputs = list(graph.inputs)
    for v in extra:
        if v in inputs:
            continue
        inputs.append(v)
    return graph.replace(inputs=tuple(inputs)), mapping


def _unify_free(graphs_and_free, n_own):
    free = []
    for _, f in graphs_and_free:
        for v in f:
            if v not in free:
                free.append(v)
    graphs = [g.replace(inputs=tuple(g.inputs[:n_own]) + tuple(free)) for g, _ in graphs_and_free]
    return graphs, free


def _merge_type(name, a, b, where):
    if (a.shape, a.dtype) == (b.shape, b.dtype):
        return a if a.weak and b.weak else a.strong()
    if a.shape == b.shape and a.weak and b.weak:
        # Python numbers on both paths (0.5 and 1+2j): the wider holds both; the call
        # hands back each path's own Python type.
        return ArrayType(a.shape, np.result_type(a.dtype, b.dtype), True)
    if a.shape == b.shape and (a.weak or b.weak):
        strong, weak = (b, a) if a.weak else (a, b)
        if "biufc".index(weak.dtype.kind) > "biufc".index(strong.dtype.kind):
            raise ControlFlowError(
                f"variable `{name}` is a Python {python_type_of(weak.dtype).__name__}"
                f" on one path and {strong.dtype.name} on the other ({where}); a compiled "
                f"branch or loop needs one dtype, and {strong.dtype.name} cannot hold the "
                f"Python number. Initialise `{name}` with the final dtype.")
        return strong.strong()
    if a.dtype != b.dtype:
        raise ControlFlowError(
            f"variable `{name}` is {a.dtype.name} on one path and {b.dtype.name} on the other "
            f"({where}); a compiled branch or loop needs one dtype. Initialise `{name}` with the "
            f"final dtype (e.g. `{name} = np.zeros(..., dtype=np.{np.result_type(a.dtype, b.dtype).name})`).")
    if len(a.shape) != len(b.shape):
        raise ControlFlowError(
            f"variable `{name}` has shape {a.shape} on one path and {b.shape} on the other "
            f"({where}); a compiled branch needs one rank.")
    # Sizes that differ between the paths are known only at run time after the `if`.
    return ArrayType(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.dtype)


def _rank_options(name, vals, types, where):
    """For a variable of one element whose paths give it different ranks (``lo =
    -np.inf``, then ``lo = beta[i].copy()`` of a column ``beta``), or a rank the data
    chose before: (the type it is carried as, of the largest rank; the types and
    scalar-ness of the values it may be; whether a Python int stands as a float); None
    where every path gives one rank (see ``tracer.RankChoice``)."""
    options = []
    chosen = [v.choice for v in vals if isinstance(v, Tracer) and v.choice is not None]
    for v in vals:
        v = to_tracer(v) if isinstance(v, numbers.Number) else v
        if not isinstance(v, Tracer):
            if chosen:
                chosen[0].refuse()
            return None
        for o in (v.choice.options if v.choice is not None else (v,)):
            if (o.carried_atom().type, o.is_scalar) not in options:
                options.append((o.carried_atom().type, o.is_scalar))
    if len({t.ndim for t, _ in options}) < 2:
        return None
    strong = {t.dtype for t, _ in options if not t.weak}
    dtype = next(iter(strong)) if len(strong) == 1 else None
    weak_fit = dtype is not None and all(
        not t.weak or t.dtype == dtype or
        (t.dtype.kind in "bi" and dtype in (np.dtype(np.float64), np.dtype(np.complex128)))
        for t, _ in options)
    if any(set(t.shape) - {1} for t, _ in options) or not weak_fit:
        if chosen:
            chosen[0].refuse()
        # Not one element, or not of one dtype: refused as values of two ranks are.
        return None
    promoted = any(t.weak and t.dtype != dtype for t, _ in options)
    options = [(ArrayType(t.shape, dtype, t.weak), s) for t, s in options]
    largest = max(options, key=lambda o: o[0].ndim)[0]
    return ArrayType(largest.shape, dtype), tuple(dict.fromkeys(options)), promoted, \
        f"variable `{name}` holds one element of shape {types[0].shape} or " \
        f"{types[1].shape}, as the data choose at {where}"


def _rank_after_loop(value, ranked, out, runs_once):
    """A loop's variable of one element whose rank the data choose (``value``, carried
    at the largest): where the loop runs at least once, the ranks the body gives it
    (``out``, its value after the body), else those too that it had before the loop."""
    if runs_once:
        if isinstance(out, numbers.Number):
            out = to_tracer(out)
        if isinstance(out, Tracer) and out.choice is None:
            t = out.carried_atom().type
            value = emit("reshape", [value], {"shape": t.shape})
            if t.weak:
                value = emit("convert", [value], {"dtype": t.dtype, "weak": True})
            return Tracer(value.carried_atom(), is_scalar=out.is_scalar)
        if isinstance(out, Tracer):
            ranked = ranked[:1] + ({(o.carried_atom().type, o.is_scalar): None
                                    for o in out.choice.options}, ) + ranked[2:]
            ranked = ranked[:1] + (tuple(ranked[1]),) + ranked[2:]
    return _with_options(value, ranked)


def _with_options(value, ranked):
    """``value`` (the carried one of ``_rank_options``) with its choice of ranks."""
    _, options, promoted, message = ranked
    kept = []
    for t, scalar in options:
        o = emit("reshape", [value], {"shape": t.shape}) if t.shape != value.type.shape \
            else value
        if t.weak:
            o = emit("convert", [o], {"dtype": t.dtype, "weak": True}, scalar=True)
        kept.append(Tracer(o.carried_atom(), is_scalar=scalar))
    return with_rank_choice(kept, RankChoice((), message, ControlFlowError, promoted))


def _check_python_numbers_fit(name, vals, t, where):
    """A Python number on one path of an `if` whose other path gives a NumPy dtype comes
    back as the Python number it was (the call hands back each path's own type), so the
    dtype both paths share must hold it exactly: -3 does not fit a uint32, nor 0.1 a
    float32. A number known only at run time is checked when the graph runs: returns
    the paths (0, 1) that give one (see ``_fitting``)."""
    at_run_time = set()
    if t.weak:
        return at_run_time
    for j, v in enumerate(vals):
        atom = _atom_of(v, name, where)
        if not atom.type.weak or atom.type.dtype == t.dtype:
            continue
        if isinstance(atom, Literal):
            value = np.asarray(atom.value)
            with np.errstate(all="ignore"):
                held = value.astype(t.dtype)
            if np.array_equal(held.astype(value.dtype), value, equal_nan=True) and \
                    (value.dtype.kind != "f" or np.signbit(held) == np.signbit(value)):
                continue
            shown, can = f"the Python {python_type_of(value.dtype).__name__} {value.item()!r}", \
                "cannot"
        else:
            at_run_time.add(j)
            continue
        raise ControlFlowError(
            f"variable `{name}` is {shown} on one path and {t.dtype.name} on the other "
            f"({where}); a compiled branch needs one dtype, and {t.dtype.name} {can} hold "
            f"the Python number exactly. Make both paths give the same dtype "
            f"(e.g. np.{t.dtype.name}(...) or float(...)).")
    return at_run_time


def _fitting(atom, t, name, where):
    """A Python number known only at run time, checked to be held exactly by ``t``'s
    dtype (the paths' common one): where it is not, the call runs with NumPy."""
    v = Tracer(atom)
    back = api.astype(api.astype(v, t.dtype), v.dtype)
    ok = (back == v) | (v != v)
    return emit("check", [v, ok], {
        "error": "OutsideTheGraph", "weak": True,
        "message": f"variable `{name}` is a Python number on one path of the `if` at {where} "
                   f"that {t.dtype.name}, the dtype of the other, does not hold exactly"},
        scalar=True).atom


def _kind_of(value):
    """What a 0-d branch value is to NumPy: a ``KIND_*`` int, or the atom that says so when
    an earlier `if` left it to the data."""
    if isinstance(value, Tracer):
        if isinstance(value.kind_flag, Literal):
            return int(value.kind_flag.value)
        if value.kind_flag is not None:
            return value.kind_flag
        if value.type.weak:
            return python_kind(python_type_of(value.type.dtype))
        return KIND_SCALAR if value.is_scalar else KIND_ARRAY
    if isinstance(value, np.ndarray):
        return KIND_ARRAY
    if isinstance(value, np.generic):
        return KIND_SCALAR
    return python_kind(type(value) if type(value) in PYTHON_TYPES else float)


def _kinds_of(value):
    """The kinds a value may be when the graph runs (see ``_kind_of``)."""
    kind = _kind_of(value)
    return set(value.kinds) if isinstance(kind, Var) else {kind}


def _kind_atom(kind):
    return api.to_atom(np.int8(kind)) if isinstance(kind, int) else kind


def _cast_atom(atom, t):
    tr = Tracer(atom)
    if atom.type.ndim != t.ndim:
        # One element carried at the largest rank the data may give it (``_rank_options``).
        tr = emit("reshape", [tr], {"shape": t.shape})
    if atom.type.dtype != t.dtype:
        tr = api.astype(tr, t.dtype)
    return tr.atom


# -------------------------------------------------------------------- if
class _Traced:
    """A traced branch or body: its builder, outputs, and the buffers it wrote."""

    def __init__(self, builder, outs, values, frame, inside):
        self.builder = builder
        self.inside = inside      # containers' values, arrays read at the end of the trace
        # The Python objects the names hold at the end: which array *object* a name
        # holds decides where later in-place writes land.
        self.objects = list(outs)
        # Values as they are at the end of the trace (before outer writes are undone).
        self.outs = values
        local = set(builder.inputs) | {v for e in builder.eqns for v in e.outputs}
        self.local = local
        # Buffers of arrays made inside the trace are its own business; outer ones are state.
        outer = {b: state for b, state in frame.items() if state[0] not in local}
        self.before = {b: state[0] for b, state in outer.items()}   # value before the trace
        self.after = {b: b.atom for b in outer}                      # value it wrote
        restore(outer)

    def buffer_value(self, b, before):
        return self.after.get(b, before)


def _snapshot_tracer(t):
    if isinstance(t, GrowingList):
        return t.copy_rows()
    out = Tracer(t.carried_atom(), t.is_scalar)
    out.kind_flag, out.kinds = t.kind_flag, t.kinds
    if not is_c_ordered(t):
        out._layout = UNKNOWN
    return out


def _snapshot_value(value):
    """``_snapshot_tracer`` of a value, or of each array in a tuple, list or dict."""
    if isinstance(value, Tracer):
        return _snapshot_tracer(value)
    if type(value) in (tuple, list, dict) or isinstance(value, MaybeKeys):
        leaves, treedef = tree.flatten(value)
        return tree.unflatten(treedef, [_snapshot_value(v) for v in leaves])
    return value


# Containers of nptf's own that control flow carries as the arrays they hold.
_NODES = (TracedDict, BucketTable, MaybeKeys, RaggedList)


def _flatten_containers(branches, state, names):
    """Variables that hold a tuple, list or dict of one structure on both paths of an `if`
    (``return x, n`` on each) become one variable per element, so each element merges as
    a variable of its own; a path with no value (no `return` there) takes the other's
    structure. Returns the new state and names, and the function that rebuilds the
    containers from the merged values."""
    plan, new_state, new_names = [], [], []
    outs = [[br.inside.get(i, v) for i, v in enumerate(br.outs)] for br in branches]
    objects = [list(br.objects) for br in branches]
    for i, name in enumerate(names):
        # ``return None`` on one path, a tuple on another: a container that may be None
        # (at any depth: ``best = (np.inf, None)``, then ``best = (d, (p, q))``).
        vals = [o[i] for o in outs]
        made = _none_ors_within(vals, name)
        # ``best = {"gain": 0.0}``, then ``best = {"gain": g, "feature": j}`` on a path:
        # a dict holding the keys of both, some there only as the data say.
        made = maybe_keys_within(made, lambda key: Unread(f"{name}[{key!r}]", ""))
        if builtins.any(m is not v for m, v in zip(made, vals)):
            for o, ob, v in zip(outs, objects, made):
                o[i] = ob[i] = v
    for br in branches:
        br.outs, br.objects = [], []
    for i, name in enumerate(names):
        vals = [o[i] for o in outs]
        defs = [tree.flatten(v)[1] if type(v) in (tuple, list, dict, NoneOr) or
                isinstance(v, _NODES) else None for v in vals]
        known = [d for d in defs if d is not None]
        if not known or (len(known) == 2 and known[0] != known[1]) or \
                (len(known) == 1 and not any(isinstance(v, Undefined) for v in vals)):
            plan.append(None)
            new_state.append(state[i])
            new_names.append(name)
            for br, o, ob in zip(branches, outs, objects):
                br.outs.append(o[i])
                br.objects.append(ob[i])
            continue
        treedef = known[0]
        n = len(tree.flatten(vals[defs.index(treedef)])[0])
        plan.append((treedef, n))
        for br, o, ob, d in zip(branches, outs, objects, defs):
            if d is None:        # no value on this path
                br.outs += [o[i]] * n
                br.objects += [ob[i]] * n
            else:
                br.outs += tree.flatten(o[i])[0]
                br.objects += tree.flatten(ob[i])[0] if type(ob[i]) in (tuple, list, dict,
                                                                         NoneOr) or \
                    isinstance(ob[i], _NODES) else [ob[i]] * n
        old = state[i]
        new_state += tree.flatten(old)[0] if (type(old) in (tuple, list, dict, NoneOr) or
                                               isinstance(old, _NODES)) and \
            tree.flatten(old)[1] == treedef else [old] * n
        new_names += [f"{name}[{k}]" for k in range(n)]

    def rebuild(result):
        out, it = [], iter(result)
        for step in plan:
            if step is None:
                out.append(next(it))
            else:
                out.append(tree.unflatten(step[0], [next(it) for _ in range(step[1])]))
        return tuple(out)
    return tuple(new_state), tuple(new_names), rebuild


def _run_traced(fn, in_types=(), capture=lambda p: p):
    try:
        return _Traced(*_trace(fn, list(in_types), capture))
    except Exception as e:
        # Raised inside a path (a recursion only the data end): assuming which path the
        # data take would not help an `if` around it (``_assumed_path``).
        e._nptf_in_path = True
        raise


# The `if`s being traced (their paths' functions): ``_traced_if`` traces one again with
# other state before the paths (lists as arrays), which only the first may assume.
_TRACING_IFS = contextvars.ContextVar("nptf_tracing_ifs", default=frozenset())


def if_stmt(cond, true_fn, false_fn, state, names, where="", frame=None):
    """``if cond: state = true_fn(*state) else: state = false_fn(*state)`` (``frame``: the
    converted function's, when not the caller's)."""
    c = _concrete_condition(cond)
    if not isinstance(c, Tracer):
        return (true_fn if c else false_fn)(*state)
    where = where or user_location()
    if python_loop(where):
        # A list a path grows cannot do what the function does with it: Python takes the
        # data's path, where the list stays Python's own.
        taken = _assumed_condition(c, where, "`if`")
        if taken is not None:
            return (true_fn if taken else false_fn)(*state)
    frame = frame or sys._getframe(1)
    # Attributes a graph loop around carries are the paths' to write, and to merge.
    key = (id(true_fn), id(false_fn))
    again = key in _TRACING_IFS.get()
    token = _TRACING_IFS.set(_TRACING_IFS.get() | {key})
    made = MADE_AT.set(where)
    with carrying_attributes(()), wanted_inside() as wanted:
        try:
            return _traced_if(c, true_fn, false_fn, state, names, where, frame)
        except (ControlFlowError, UnsupportedError) as e:
            taken = None if again else _assumed_path(c, e, where, bool(wanted))
            if taken is None:
                raise
        finally:
            _TRACING_IFS.reset(token)
            MADE_AT.reset(made)
    return (true_fn if taken else false_fn)(*state)


def _refuse_chosen_containers(branches, names, where, frame):
    """Where the paths leave a variable on two Python containers, one of which another name
    also holds (``row = rows[0] if x.sum() > 0 else rows[1]``): the graph's value would be
    a copy of the items of one, which a later change through either name would not reach.
    Refused (the trace may then take the data's path: ``_assumed_path``)."""
    for i, name in enumerate(names):
        objects = [br.objects[i] for br in branches]
        if objects[0] is objects[1] or not any(type(o) in (list, dict, set) for o in objects):
            continue
        held = [o for o in objects if type(o) in (list, dict, set) and
                reachable_elsewhere(o, name, frame)]
        if held:
            raise _python_object_in_branch(
                f"a branch of the `if` at {where}, whose condition is a traced value, binds "
                f"`{name}` to the Python {type(held[0]).__name__} another name also holds, "
                f"and the other branch to another object: a change through either name "
                f"would reach the one the data choose. Copy it (list(...), dict(...)) where "
                f"it is chosen, or let the function run with NumPy (fallback='numpy', the "
                f"default).")


def _assumed_path(c, error, where, wanted=False):
    """The path the trace takes of an `if` whose paths cannot become one graph's (a
    ``return 1.0`` on one, a tuple on the other; a dict each path gives other keys; items of
    text appended on one path): the path the data of the call being traced take, where the
    trace can tell (``shadow.guess``; else the false one), and the graph checks that the
    data agree, so a call whose data take the other path runs the graph traced with the
    other assumption (``tracer.sites``). None where no second graph can follow (an
    exported or transformed trace), where a graph loop traces the body (the condition
    differs from one iteration to the next; the loop's own fallbacks decide), or where the
    error came from inside a path, but for a path that asked for a value only the
    function's own graph has (``wanted``: the data's path, run there, may have it)."""
    in_path = getattr(error, "_nptf_in_path", False)
    if getattr(error, "retyped", False) or (in_path and not wanted):
        return None
    if IN_GRAPH_LOOP.get() and (not isinstance(error, ControlFlowError) or
                                getattr(error, "python_object_in_branch", False)):
        # A graph loop carries Python objects a path changes (its own fallbacks); the
        # other values (a `return` of a string inside the loop) keep the path the data
        # take on every iteration, which the graph checks on each.
        return None
    guessed = guess(c)
    if in_path and guessed is None:
        # Python needs a value inside the path: only the function's own graph, where the
        # data's path runs, may assume it.
        return None
    taken, site = assume_path(where, guessed)
    if site is None:
        return None
    path = "true" if taken else "false"
    emit("check", [c, c if taken else np.logical_not(c)], {
        "error": "OutsideTheGraph", "assumption": site, "when_read": False,
        "message": f"the `if` at {where}: these data make its condition "
                   f"{'false' if taken else 'true'}, where the graph takes the {path} path "
                   f"(its paths give values of different kinds)"}, scalar=True)
    return taken


def _growing_at_places(scope, state):
    """Lists the data grow at an attribute or in a closure's variable (``self.losses`` or
    ``history`` appended to in a graph loop or an `if` before), which a path or a loop
    body would change in place, as they are now: (path, holder, attribute, list, its
    ``saved_state``) of those not among ``state``."""
    places = [(path, obj, k, v, saved_state(v)) for path, obj, at in
              scope.attributes_holding(lambda v: isinstance(v, GrowingList))
              for k in at for v in [getattr(obj, k)]] + \
        [(name, cell, "cell_contents", v, saved_state(v)) for name, cell, v in scope.cells
         if isinstance(v, GrowingList)]
    return [g for g in places if not builtins.any(g[3] is s for s in state)]


def _refuse_uncarried_growth(at_places, scope):
    """Where the loop body just traced appended to a list the data grow at an attribute
    or in a closure's variable (``_growing_at_places``) that the loop does not carry:
    undo that, and raise ``_PythonOnlyBody``, whose ``changed_objects`` name such
    attributes with the others the body rebinds (the loop is traced again carrying them,
    ``_attribute_cells``) where nothing else reaches their lists and nothing else
    changed."""
    grew = [g for g in at_places if not same_state(g[3], g[4])]
    if not grew:
        return
    for g in at_places:
        restore_state(g[3], g[4])
    path, _, k, _, _ = grew[0]
    error = _PythonOnlyBody(f"the loop body appends to the Python list "
                            f"`{path if k == 'cell_contents' else f'{path}.{k}'}`, which only "
                            f"Python can change on every iteration")
    others = scope.changed_attributes() if scope.changed() else []
    alone = all(held_only_at(g[3], g[1], g[0] if g[2] == "cell_contents" else g[2],
                             scope.frame) for g in grew)
    error.changed_objects = error.growing_cells = None
    if alone and others is not None:
        by_object = {id(obj): (p, obj, dict(attrs)) for p, obj, attrs in others}
        for p, obj, k, v, _ in grew:
            if k != "cell_contents":
                by_object.setdefault(id(obj), (p, obj, {}))[2][k] = v
        error.changed_objects = list(by_object.values())
        error.growing_cells = [(name, cell) for name, cell, k, _, _ in grew
                               if k == "cell_contents"]
    raise error


def _traced_if(c, true_fn, false_fn, state, names, where, frame):
    cells = [c for c in _written_lists([true_fn, false_fn], frame) if c.original is None]
    if cells:
        return _if_writing_lists(c, true_fn, false_fn, state, names, where, frame, cells)
    for name, v in zip(names, state):
        if type(v) is dict and builtins.any(isinstance(x, GrowingList) for x in v.values()):
            raise ControlFlowError(
                f"a branch of the `if` at {where}, whose condition is a traced value, changes "
                f"the dict `{name}`, which holds a list whose length the data choose (a "
                f"loop appended to it). Keep that list in a variable of its own "
                f"(`{name}_list = []`, appended to, then put in the dict after the loops), or "
                f"let the function run with NumPy (fallback='numpy', the default).")
    scope = _scope(frame)
    at_places = _growing_at_places(scope, state)
    branches, raised, writes, added = [], {}, {}, {}
    lists, appended = _lists_in(state, names, frame), {}
    for fn in (false_fn, true_fn):
        try:
            # Each path appends to its own copy of a list the data grow.
            branches.append(_run_traced(lambda fn=fn: fn(*[
                v.copy_rows() if isinstance(v, GrowingList) else
                v.copy() if isinstance(v, RaggedList) else v for v in state])))
        except Exception as e:      # noqa: BLE001  (the user's own error)
            _take_changes(state, lists)
            if not (_raised_by_user_code(e) or _numpy_error(e)) or len(raised):
                scope.put_back()
                if raised and _raised_by_user_code(e):
                    _both_raise(raised[False], e, where)
                raise
            scope.put_back()
            raised[fn is true_fn] = e
            continue
        grew = [g for g in at_places if not same_state(g[3], g[4])]
        if grew:
            # A path appended to such a list: it joins the variables, each path appending
            # to its own copy, if nothing else reaches it.
            for g in at_places:
                restore_state(g[3], g[4])
            _take_changes(state, lists)
            scope.put_back()
            alone = [g for g in grew if held_only_at(g[3], g[1], g[0] if g[2] == "cell_contents"
                                                     else g[2], frame)]
            if len(alone) == len(grew):
                return _writing_items(c, true_fn, false_fn, state, names, where, frame,
                                      [(path, obj, {k}) for path, obj, k, _, _ in grew])
            path, _, k, _, _ = next(g for g in grew if g not in alone)
            raise _python_object_in_branch(
                f"a branch of the `if` at {where}, whose condition is a traced value, changes "
                f"the Python list `{path if k == 'cell_contents' else f'{path}.{k}'}`, which "
                f"another variable, container or object also holds. Both branches are traced "
                f"once and the data choose one when the graph runs, so that name would not "
                f"see the change. Append through one name only, or let the function run with "
                f"NumPy (fallback='numpy', the default).")
        for i, (items, _, _) in _take_changes(state, lists).items():
            appended.setdefault(i, []).extend(items)
        for path, lst, before in scope.changed_lists():
            if len(lst) == len(before):
                # ``dp[i] = dp[j] + 1`` on a path: the items it writes become variables.
                writes.setdefault(id(lst), (path, lst, set()))[2].update(
                    j for j, (a, b) in enumerate(zip(lst, before)) if a is not b)
        for path, d, before in scope.changed_dicts():
            items = dict(before)
            new = [k for k, v in d.items() if k not in items or v is not items[k]]
            if all(k in d for k in items) and all(
                    _is_value(d[k]) and not isinstance(d[k], ListTracer) for k in new) and \
                    all(_is_value(v) and not isinstance(v, ListTracer)
                        for k, v in items.items() if k in new):
                # ``stats["sign"] = 1.0`` on a path: the items it writes become variables
                # (a key new on the paths, each path adding it in the same order).
                at = writes.setdefault(id(d), (path, d, []))[2]
                at += [k for k in new if k not in at]
                added.setdefault(id(d), {})[len(branches)] = [k for k in d if k not in items]
        for path, obj, attrs in scope.changed_objects():
            if all((_is_value(v) or v is None) and not isinstance(v, ListTracer)
                   for v in attrs.values()):
                # ``self.w += lr * y * x`` on a path: the attributes it rebinds (each an
                # array or a number before the `if`, or None: a decision stump's
                # ``self.threshold = thr`` where the error is the least so far) become
                # variables. (An attribute the object has no value of yet stays Python's:
                # reading it would be Python's AttributeError, or hasattr's False.)
                writes.setdefault(id(obj), (path, obj, set()))[2].update(attrs)
        held = set()
        for path, obj, attrs in scope.changed_attributes() or ():
            # ``self.losses.append(loss)`` on a path (the list at that one attribute, and
            # nothing else changed): the attribute becomes a variable, whose list the data
            # grow, and the list that attribute holds after the `if`.
            # (Not a list whose items the path wrote, of the length it had: those items
            # are variables of their own, above.)
            in_place = {k for k, v in attrs.items() if (
                (type(v) is list and _attribute_now(obj, k) is v) or
                ((type(v) is list or isinstance(v, GrowingList)) and
                 isinstance(_attribute_now(obj, k), GrowingList))) and
                held_only_at(v, obj, k, frame) and id(v) not in writes}
            if in_place:
                writes.setdefault(id(obj), (path, obj, set()))[2].update(in_place)
                held.update(f"{path}.{k}" for k in in_place)
        for name, cell, v in scope.cells:
            now = _cell_contents_now(cell)
            if (type(v) is list or isinstance(v, GrowingList)) and now is not v and \
                    isinstance(now, GrowingList) and held_only_at(v, cell, name, frame):
                # An `if` inside the path made the list a variable's that the data grow
                # (a recursive helper appending to it): so it is this `if`'s.
                writes.setdefault(id(cell), (name, cell, set()))[2].add("cell_contents")
                held.add(name)
        cells = {id(v): (name, cell) for name, cell, v in scope.cells if type(v) is list}
        for path, lst, before in scope.changed_lists():
            if id(lst) in cells and len(lst) != len(before) and \
                    held_only_at(lst, cells[id(lst)][1], cells[id(lst)][0], frame):
                # A nested function's ``residuals.append(r)`` (a callback) on a path: the
                # variable it closes over becomes one of the `if`'s, whose list the data
                # grow.
                name, cell = cells[id(lst)]
                writes.setdefault(id(cell), (name, cell, set()))[2].add("cell_contents")
                held.add(path)
        changed = [c for c in scope.changed() if c[0] not in held and
                   not any(c[0] == w[0] for w in writes.values())]
        if changed or writes:
            scope.put_back()
        if changed:
            if "[" in changed[0][0] and HASHED.get() is not None:
                # A row of a list of lists (``b[1].append(v)``): a failed trace runs again
                # with such lists kept as tables (``list_buckets``).
                HASHED.get().append(True)
            _hint_keyed_dicts(changed)
            raise _python_object_in_branch(
                f"a branch of the `if` at {where}, whose condition is a traced value, changes "
                f"the Python {changed[0][1]} `{changed[0][0]}`. Both branches are traced once "
                f"and the data choose one when the graph runs, so a Python object cannot "
                f"follow that choice. Compute both values and choose with np.where, build the "
                f"values as an array, or let the function run with NumPy "
                f"(fallback='numpy', the default).")
    for key, paths in added.items():
        keys = [paths.get(j, []) for j in range(1, len(branches) + 1)]
        if any(k != keys[0] for k in keys):
            path = writes[key][0]
            raise _python_object_in_branch(
                f"a branch of the `if` at {where}, whose condition is a traced value, adds "
                f"keys to the Python dict `{path}` that the other path does not add (or adds "
                f"in another order), so which keys it has would depend on the data. Give "
                f"the keys values before the `if`, or let the function run with NumPy "
                f"(fallback='numpy', the default).")
    if writes:
        return _writing_items(c, true_fn, false_fn, state, names, where, frame,
                              list(writes.values()))
    if appended:
        bad = [names[i] for i, items in appended.items()
               if not can_grow(lists[i] + items, lists=True)]
        ragged = {i: ragged_spec(lists[i] + items) for i, items in appended.items()
                  if names[i] in bad}
        if bad and all(ragged.values()):
            # Arrays of lengths the data choose: both paths start from a ragged list of
            # the items before the `if`.
            state = tuple(ragged[i].of_list(lists[i]) if i in ragged else
                          grown(lists[i], common_item(lists[i] + appended[i], lists=True))
                          if i in appended else v for i, v in enumerate(state))
            return if_stmt(c, true_fn, false_fn, state, names, where, frame)
        if bad:
            raise _python_object_in_branch(
                f"a branch of the `if` at {where}, whose condition is a traced value, appends "
                f"to the Python list `{bad[0]}` items that are not numbers or arrays of one "
                f"shape and dtype, so the list cannot be one array whose length the data "
                f"choose. Append values of one shape and dtype, or let the function run with "
                f"NumPy (fallback='numpy', the default).")
        # ``spikes.append(t)`` on a path: how long the list is, the data decide.
        state = tuple(grown(lists[i], common_item(lists[i] + appended[i], lists=True))
                      if i in appended
                      else v for i, v in enumerate(state))
        return if_stmt(c, true_fn, false_fn, state, names, where, frame)
    # A list an inner `if` appended to (it hands back a GrowingList): on this `if`'s other
    # path the list is as it was, a GrowingList of its items before.
    nested = {i: _item_with(out.item, before) for br in branches
              for i, (before, out) in enumerate(zip(state, br.objects))
              if type(before) is list and isinstance(out, GrowingList) and
              _item_with(out.item, before) is not None}
    if nested and not raised:
        state = tuple(grown(v, nested[i]) if i in nested else v for i, v in enumerate(state))
        return if_stmt(c, true_fn, false_fn, state, names, where, frame)
    retyped = {} if raised else _retyped_dicts(state, names, branches, where)
    if retyped:
        # A path gives its first key and value to a dict empty before the `if`: both
        # paths start from an empty dict of that kind.
        state = tuple(empty_of(retyped[i]) if i in retyped else v for i, v in enumerate(state))
        return if_stmt(c, true_fn, false_fn, state, names, where, frame)
    tables = {} if raised else buckets_before(state, lambda i: [br.objects[i]
                                                                for br in branches])
    if tables:
        # A path appends to a list of lists at a traced position: both paths start from
        # the table of its rows before the `if`.
        state = tuple(tables.get(i, v) for i, v in enumerate(state))
        return if_stmt(c, true_fn, false_fn, state, names, where, frame)
    if raised:
        return _one_branch_raises(c, raised, true_fn, false_fn, state, where)
    _refuse_chosen_containers(branches, names, where, frame)
    _widen_paths_lists(branches, len(state))
    state, names, rebuild = _flatten_containers(branches, state, names)
    before = {}
    for br in branches:
        before.update(br.before)
    written = list(before)
    merged, static, ambiguous, fits, texts, ranked = [], {}, [], {}, {}, {}
    for i, name in enumerate(names):
        objects = [br.objects[i] for br in branches]
        if isinstance(objects[0], Tracer) and objects[0] is objects[1] and \
                not defined_in(objects[0], branches[0].local):
            # Both paths leave the name on the same array that existed before the `if`
            # (written in place, or not at all): its value travels with its memory.
            static[i] = objects[0]
            continue
        outer = []
        for o, br in zip(objects, branches):
            # Asked in the path's graph: a view the path made (``x[j % 5]``) would derive
            # its value again outside it, from the path's own values.
            with _into(br.builder):
                if _writable_array(o) and not defined_in(o, br.local):
                    outer.append((o, br.builder))
        if outer and not name.startswith("_nptf__val") and \
                _memory_held_elsewhere([o for o, _ in outer], name, frame):
            # One path keeps (or takes) an array that existed before; the other binds
            # another array: later writes through either name land in memory that
            # depends on the data. A return value is not such a name: the path that
            # returns runs nothing after it (converted code guards the rest by the return
            # flag, and a `finally` after a return is not converted), so a write later
            # into the array it returned happens only on paths that did not return it.
            # Nor is an array no other name reaches (``w = np.ones(n) / n`` on resampling,
            # ``w *= lik`` after): a write into it shows through this name only.
            ambiguous.append((i, outer))
        vals = [br.outs[i] for br in branches]
        if any(isinstance(v, ListTracer) and not isinstance(v, GrowingList)
               for v in objects + vals):
            raise unsupported("a conditional expression on a traced value choosing a list "
                              "argument" if name == "<expression>" else
                              f"an `if` on a traced value assigning variable `{name}`, which "
                              f"holds a list argument,", where,
                              fix="Convert it first (np.asarray(x)) if array arithmetic is meant.")
        if not any(isinstance(v, Tracer) for v in vals) and (vals[0] is vals[1] or (
                isinstance(vals[0], numbers.Number) and type(vals[0]) is type(vals[1]) and
                vals[0] == vals[1])):
            static[i] = vals[0]
            continue
        if len(vals) == 2 and all(_text_option(v) for v in vals) and \
                not all(v is None for v in vals):
            # ``label = "wide" if ... else "tall"``, ``best_name = name`` after ``best_name
            # = None``: the string (or None) of the path the data take, one of the paths'
            # options at a position each path gives (merged as a number).
            if type(vals[0]) is str and vals[0] == vals[1]:
                static[i] = vals[0]
                continue
            texts[i] = _text_options(vals)
            for br in branches:
                with _into(br.builder):
                    br.outs[i] = _text_position(texts[i], br.outs[i])
            vals = [br.outs[i] for br in branches]
        if any(isinstance(v, Undefined) for v in vals):
            if (name.startswith("_nptf__val") or any(isinstance(v, Unread) for v in vals)) \
                    and not all(isinstance(v, Undefined) for v in vals):
                # A return value, or an item of a container that is None on the other
                # path: the path without one never reads it.
                other = next(v for v in vals if not isinstance(v, Undefined))
                if other is None:
                    # ``return None`` on one path: None wherever the value is read (a
                    # later return on the other path makes it a value that may be None).
                    static[i] = None
                    continue
                if not _is_value(other):
                    raise ControlFlowError(
                        f"a `return` of a {type(other).__name__} inside the `if` at {where}, "
                        f"whose condition is a traced value: compiled control flow returns "
                        f"arrays and numbers only. Return an array on every path (np.nan for "
                        f"no result), or let the function run with NumPy (fallback='numpy', "
                        f"the default).")
                # A Python bool is one on this path too (``return x, it, True`` on
                # convergence, ``return x, maxiter, False`` after the loop).
                other = Tracer(_atom_of(other, name, where), is_scalar=True) \
                    if type(other) is bool else to_tracer(other)
                for br in branches:
                    if isinstance(br.outs[i], Undefined):
                        with _into(br.builder):
                            br.outs[i] = _stand_in(other)
                vals = [br.outs[i] for br in branches]
            elif not _unbound_on_one_path(branches, i, name):
                like = [v.like if isinstance(v, Undefined) else v for v in vals]
                static[i] = Undefined(name, where, next((v for v in like if _is_value(v)),
                                                        None))
                continue
            vals = [br.outs[i] for br in branches]
        if any(v is None for v in vals):
            _none_on_one_path(branches, i, name, where)
            vals = [br.outs[i] for br in branches]
        types = [_type_of(v, name, where) for v in vals]
        ranked[i] = _rank_options(name, vals, types, where)
        merged.append((i, ranked[i][0] if ranked[i] else
                       _merge_type(name, types[0], types[1], where)))
        fits[i] = _check_python_numbers_fit(name, vals, merged[-1][1], where)
    # 0-d values that are a NumPy scalar on one path and a 0-d array or a Python number
    # on the other: the graph also returns which, so the call hands back what NumPy would.
    kinds = [(i, [_kind_of(br.outs[i]) for br in branches]) for i, t in merged
             if t.ndim == 0 or any(maybe_none(br.outs[i]) or _maybe_unbound(br.outs[i])
                                   for br in branches)]
    kinds = [(i, k) for i, k in kinds if not (isinstance(k[0], int) and k[0] == k[1])]
    closed = []
    for j, br in enumerate(branches):
        with _into(br.builder):
            atoms = [_cast_atom(_fitting(_atom_of(br.outs[i], names[i], where), t, names[i],
                                         where) if j in fits[i] else
                                _atom_of(br.outs[i], names[i], where), t) for i, t in merged]
        atoms += [br.buffer_value(b, before[b]) for b in written]
        atoms += [_kind_atom(k[j]) for _, k in kinds]
        closed.append(_close(br.builder, atoms))
    graphs, free = _unify_free(closed, 0)
    outs = list(current_builder().emit("cond", [c.atom] + free, {"branches": tuple(graphs)}, where))
    flags = dict(zip((i for i, _ in kinds), outs[len(outs) - len(kinds):]))
    outs = outs[:len(outs) - len(kinds)]
    result = list(state)
    for (i, t), v in zip(merged, outs):
        result[i] = Tracer(v, is_scalar=t.ndim == 0)
        lists = [o for o in [state[i]] + [br.outs[i] for br in branches]
                 if isinstance(o, GrowingList)]
        if lists:
            # A path that took items away leaves the list shorter than it was; a list
            # returned on one path (and a stand-in on the other) is that list.
            facts = lists[0].weakest(lists[1:])
            result[i] = (lists[0] if facts is None else facts).rebuilt(v)
        if i in flags:
            result[i].kind_flag = flags[i]
            result[i].kinds = frozenset().union(*(br.outs[i].kinds if isinstance(k, Var) else {k}
                                                  for br, k in zip(branches, dict(kinds)[i])))
        if not all(_c_ordered(br.outs[i]) for br in branches):
            result[i]._layout = UNKNOWN
        if i in texts:
            result[i] = Text(operator.getitem, (texts[i], result[i]))
        if ranked.get(i):
            result[i] = _with_options(result[i], ranked[i])
    for i, v in static.items():
        result[i] = v
    for b, v in zip(written, outs[len(merged):]):
        set_buffer(b, v)
    for i, outer in ambiguous:
        what = (f"after the `if` at {where}, `{names[i]}` is, depending on the data, either a "
                f"new array or the same array as before")
        for t, builder in outer + [(result[i], None)]:
            # A path's view is asked in its graph (see above); its memory is marked here.
            with _into(builder) if builder is not None else contextlib.nullcontext():
                writable = _writable_array(t)
            if writable:
                mark_ambiguous(t, what)
    return rebuild(tuple(result))


def _memory_held_elsewhere(arrays, name, frame):
    """Whether one of ``arrays`` (that existed before an `if`), or a view of its memory,
    is reached other than through variable ``name`` of the user's function running in
    (or around) ``frame``: another variable, a container, or the caller (an argument)."""
    if frame is None or any(o._view is not None and o._view.buffer.ambiguous for o in arrays):
        # (memory an earlier `if` left to the data may be another name's)
        return True
    buffers = {id(o._view.buffer) for o in arrays if o._view is not None}

    def is_it(v):
        return isinstance(v, Tracer) and (any(v is o for o in arrays) or (
            v._view is not None and id(v._view.buffer) in buffers))
    return held_elsewhere(name, frame, is_it)


def _maybe_unbound(value):
    """Whether ``value`` is a variable no path the data took may have assigned yet."""
    return isinstance(value, Tracer) and value.kinds is not None and KIND_UNBOUND in value.kinds


def _unbound_on_one_path(branches, i, name):
    """A variable with no value before the `if` that one path assigns (``if x[i] < 0:
    idx = i``): on the other path it becomes a stand-in whose kind says unbound, so that
    a later read raises Python's UnboundLocalError when the graph runs, where the data
    took no path that assigns it, and code that reads it only where it is assigned
    (``idx if found else -1``) compiles. False (nothing changed) where the assigned
    value is not an array or number of a static shape and one kind."""
    vals = [br.outs[i] for br in branches]
    if name.startswith("_nptf__") or sum(isinstance(v, Undefined) for v in vals) != 1 or \
            any(isinstance(v, Unread) for v in vals):
        return False
    other = next(v for v in vals if not isinstance(v, Undefined))
    if isinstance(other, Tracer) and other.kinds is not None and not (
            KIND_UNBOUND in other.kinds and len(other.kinds) == 2):
        # (one an inner `if` assigns on one of its paths stays unbound here too)
        return False
    for br in branches:
        if isinstance(br.outs[i], Undefined):
            with _into(br.builder):
                stand_in = unbound_stand_in(other)
            if stand_in is None:
                return False
            br.outs[i] = stand_in
    return True


def _retyped_dicts(state, names, branches, where):
    """{position: the kind of dict} of the dicts keyed by traced values that a path of
    an `if` types (they were empty before it); refuses dicts the paths leave of two
    kinds."""
    out = {}
    for i, v in enumerate(state):
        if not isinstance(v, TracedDict):
            continue
        spec = v.spec
        for br in branches:
            o = br.objects[i]
            if isinstance(o, TracedDict) and spec is not None:
                spec = joined(spec, o.spec)
            elif o is not v and not isinstance(o, Undefined):
                spec = None
        if spec is None:
            raise unsupported(f"an `if` on a traced value whose paths leave `{names[i]}` "
                              f"different dicts, or dicts of keys or values of different "
                              f"kinds,", where,
                              fix="Assign items of one kind on every path, into the one dict.")
        if spec != v.spec:
            out[i] = spec
    return out


def _if_writing_lists(cond, true_fn, false_fn, state, names, where, frame, cells):
    """An `if` on a traced value whose paths write items of lists a graph loop carries as
    arrays (``cells``, see ``_written_lists``): those lists join its variables."""
    n = len(state)
    before = _cells_now(cells)

    def writing(fn):
        return lambda *st: _with_cells(cells, st[n:], fn, *st[:n])

    try:
        out = if_stmt(cond, writing(true_fn), writing(false_fn), tuple(state) + before,
                      tuple(names) + _cell_names(cells), where, frame)
    except BaseException:
        _cells_put_back(cells, before)
        raise
    _cells_put(cells, out[n:])
    return tuple(out[:n])


def _cell_names(cells):
    return tuple(f"{c.name}{'' if k == 0 else ' (kinds)'}" for c in cells
                 for k in range(c.width))


def _cell_contents_now(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


def _text_option(v):
    """Whether ``v`` is a string, None, or one of those a traced position chooses."""
    return v is None or type(v) is str or (isinstance(v, Text) and v.choice() is not None)


def _text_choices(v):
    """The options of a string, None, or a choice of them (``Text.choice``), and the
    position of ``v`` among them (a Python int, or traced)."""
    if isinstance(v, Text):
        seq, k = v.choice()
        return list(seq), k
    return [v], 0


def _same_option(a, b):
    return a is b or (type(a) is str and type(b) is str and a == b)


def _text_options(vals):
    """Every option of the values of a variable on the paths of an `if`, once each."""
    options = []
    for v in vals:
        for o in _text_choices(v)[0]:
            if not any(_same_option(o, x) for x in options):
                options.append(o)
    return tuple(options)


def _text_position(options, v):
    """The position among ``options`` of a path's value ``v`` (an int64, traced)."""
    seq, k = _text_choices(v)
    where = [next(j for j, o in enumerate(options) if _same_option(x, o)) for x in seq]
    if not isinstance(k, Tracer):
        return api.astype(to_tracer(np.int64(where[k])), np.int64)
    return getitem(to_tracer(np.array(where, np.int64)), (k,))


def _attribute_now(obj, name):
    try:
        return object.__getattribute__(obj, name)
    except AttributeError:
        return None


def _writing_items(cond, true_fn, false_fn, state, names, where, frame, written):
    """An `if` on a traced value whose paths write items of Python lists that existed
    before it (``dp[i] = dp[j] + 1``, ``flags[i] = True``, ``grid[i][j] = v``), or rebind
    attributes of the user's objects (``self.w += lr * y * x`` in a perceptron's update),
    or append to a list at an attribute or in a nested function's closure
    (``self.losses.append(loss)``, a callback's ``history.append(r)``): those items,
    attributes and variables join its variables, merged as any other variable (a Python
    number on one path and a traced one on the other is a traced Python number; a list
    appended to, a list the data grow), and go back into the same objects after it, so
    other names for them see the writes. ``written``: (path, list, positions), (path,
    object, attribute names) and (name, closure cell, {"cell_contents"})."""
    places = []
    for path, obj, at in written:
        for key in (at if type(obj) is dict else sorted(at)):
            if isinstance(obj, types.CellType):     # a variable a nested function closes over
                places.append((path, functools.partial(getattr, obj, key),
                               functools.partial(setattr, obj, key)))
            elif type(obj) is dict:
                # A key new on the paths has no value before: one that says so.
                absent = Undefined(f"{path}[{key!r}]")
                places.append((f"{path}[{key!r}]", functools.partial(obj.get, key, absent),
                               functools.partial(_put_item, obj, key)))
            elif isinstance(obj, list):
                places.append((f"{path}[{key}]", functools.partial(obj.__getitem__, key),
                               functools.partial(obj.__setitem__, key)))
            else:
                places.append((f"{path}.{key}", functools.partial(getattr, obj, key),
                               functools.partial(setattr, obj, key)))
    n = len(state)
    dicts = {id(obj) for _, obj, _ in written if type(obj) is dict}
    # Variables that hold a dict written in place and still hold it after each path.
    kept = {i for i, v in enumerate(state) if id(v) in dicts}

    def put(values):
        for (_, _, write), v in zip(places, values):
            write(v)

    def writing(fn):
        def run(*values):
            before = [read() for _, read, _ in places]
            put(values[n:])
            try:
                result = tuple(fn(*values[:n]))
                kept.difference_update({i for i in kept if result[i] is not state[i]})
                # What the path leaves in such a dict, as it is before it is put back.
                result = tuple(dict(v) if type(v) is dict and id(v) in dicts else v
                               for v in result)
                return result + tuple(read() for _, read, _ in places)
            finally:
                put(before)
        return run

    items = tuple(read() for _, read, _ in places)
    out = if_stmt(cond, writing(true_fn), writing(false_fn), tuple(state) + items,
                  tuple(names) + tuple(name for name, _, _ in places), where, frame)
    put(out[n:])
    # The same dict, with the items the paths wrote: other names for it see them.
    return tuple(state[i] if i in kept else v for i, v in enumerate(out[:n]))


def _put_item(d, key, value):
    if isinstance(value, Undefined):
        d.pop(key, None)
    else:
        d[key] = value


def _none_on_one_path(branches, i, name, where):
    """``best = None`` before an `if` on the data and ``best = x`` in it: the path that
    leaves None gives a stand-in of ``x``'s type and the kind None, which the graph
    returns beside the value (see ``Tracer.atom`` for its uses)."""
    vals = [br.outs[i] for br in branches]
    other = next(v for v in vals if v is not None)
    if isinstance(other, GrowingList) and name.startswith("_nptf__val"):
        # ``return None`` on one path and a list the data grew on another (a topological
        # order, or None where there is a cycle): an empty list whose kind says None.
        for br in branches:
            if br.outs[i] is None:
                with _into(br.builder):
                    stand_in = grown([], object.__getattribute__(other, "item"))
                    stand_in.kind_flag = api.to_atom(np.int8(KIND_NONE))
                    stand_in.kinds = frozenset({KIND_NONE})
                    br.outs[i] = stand_in
        return
    if not _is_value(other) or isinstance(other, ListTracer):
        return          # refused as any other object that changes (``_atom_of``)
    for br in branches:
        if br.outs[i] is None:
            with _into(br.builder):
                br.outs[i] = none_stand_in(other, name, where)


def none_stand_in(value, name, where):
    """None as a value of ``value``'s type: a zero of it whose kind says None."""
    value = to_tracer(value)
    if None in value.type.shape:
        raise ControlFlowError(f"variable `{name}` is None on one path and an array of a size "
                               f"known only at run time on another, at {where}; give it an "
                               f"array on every path, or let the function run with NumPy "
                               f"(fallback='numpy', the default).")
    out = Tracer(to_tracer(_zero_like_value(Tracer(value.carried_atom(), value.is_scalar)))
                 .carried_atom(), is_scalar=value.is_scalar)
    out.kind_flag = api.to_atom(np.int8(KIND_NONE))
    out.kinds = frozenset({KIND_NONE})
    return out


class NoneOr:
    """A return value (or a variable) that is None on some paths and a tuple, list or dict
    on others (``return None`` where no root is found, ``return c, n`` where one is;
    ``best = None``, then ``best = (f, t)`` under an `if` on the data): the container
    and a bool (traced) saying it is None, which the call hands back as None or as the
    container (``tree``'s nodes). Unpacking it, indexing it or ``len`` check when the graph
    runs that it is not None: where it is, the call runs with NumPy, which raises as
    Python does; ``is None`` follows the data; anything else is refused."""

    __slots__ = ("flag", "value")

    def __init__(self, flag, value):
        self.flag, self.value = flag, value

    def nptf_children(self):
        return (self.value, self.flag)

    @classmethod
    def nptf_rebuilt(cls, children):
        value, flag = children
        if isinstance(flag, Tracer) or isinstance(flag, Undefined):
            return cls(flag, value)
        return None if bool(flag) else value

    def _value(self, what):
        if isinstance(self.flag, Tracer):
            emit("check", [self.flag, not_(self.flag)], {
                "error": "OutsideTheGraph",
                "message": f"{what} a value that is None on this call, at "
                           f"{user_location()}"}, scalar=True)
        return self.value

    def __iter__(self):
        return iter(self._value("unpacking"))

    def __getitem__(self, key):
        return self._value("indexing")[key]

    def __len__(self):
        return len(self._value("len() of"))

    def __bool__(self):
        raise unsupported("the truth of a value that is None on some paths and a "
                          "container on others", fix="Test `x is None` instead.")

    def __getattr__(self, name):
        raise unsupported(f"`.{name}` of a value that is None on some paths and a "
                          f"container on others", fix="Test `x is None` first.")


def _as_none_or(vals, name):
    """The values of a return value (or a variable) on the paths of an `if`, made
    ``NoneOr``s where one is None (or a ``NoneOr``) and another a tuple, list or dict of
    values; else None. A variable with no value on a path stays undefined there."""
    if not any(v is None or isinstance(v, NoneOr) for v in vals):
        return None
    returned = name.startswith("_nptf__val")
    if not returned and any(isinstance(v, Undefined) for v in vals):
        return None
    shapes = [tree.flatten(v.value if isinstance(v, NoneOr) else v)[1] for v in vals
              if not (v is None or isinstance(v, Undefined))]
    shapes = [d for d in shapes if d.kind != "leaf"]
    if not shapes or any(d != shapes[0] for d in shapes):
        return None
    n = len(tree.flatten(next(v.value if isinstance(v, NoneOr) else v for v in vals
                              if not (v is None or isinstance(v, Undefined))))[0])
    undefined = tree.unflatten(shapes[0], [Undefined("return value", "a return inside a loop "
                                                                      "or if")] * n) \
        if returned else tree.unflatten(shapes[0], [Unread(name, "")] * n)
    return [v if isinstance(v, NoneOr) else
            NoneOr(True, undefined) if v is None else
            NoneOr(False, undefined) if isinstance(v, Undefined) else NoneOr(False, v)
            for v in vals]


def _none_ors_within(vals, name):
    """``_as_none_or`` at every depth of tuples and lists of one length on all paths:
    ``(np.inf, None)`` on one path and ``(d, (p, q))`` on another give the item that is
    None on some paths as a ``NoneOr``. Returns ``vals`` itself where nothing changes."""
    made = _as_none_or(vals, name)
    if made is not None:
        inner = _none_ors_within([m.value for m in made], name)
        return [NoneOr(m.flag, v) for m, v in zip(made, inner)]
    defined = [v for v in vals if not isinstance(v, Undefined)]
    if len(defined) < 2 or builtins.any(type(v) not in (tuple, list) for v in defined) or \
            len({(type(v), len(v)) for v in defined}) != 1:
        return vals
    columns = [_none_ors_within([v if isinstance(v, Undefined) else v[k] for v in vals],
                                f"{name}[{k}]") for k in range(len(defined[0]))]
    if builtins.all(c[j] is (v if isinstance(v, Undefined) else v[k])
                    for k, c in enumerate(columns) for j, v in enumerate(vals)):
        return vals
    return [v if isinstance(v, Undefined) else type(v)(c[j] for c in columns)
            for j, v in enumerate(vals)]


def is_none(x):
    """``x is None``: for a value that is None on some paths, whether it is when the graph
    runs (a traced bool)."""
    chosen = x.choice() if isinstance(x, Text) else None
    if chosen is not None:
        seq, k = chosen
        return _python_bool_of([k == j for j, v in enumerate(seq) if v is None])
    if isinstance(x, NoneOr):
        return x.flag if isinstance(x.flag, Tracer) else bool(x.flag)
    check_bound(x)
    if maybe_none(x):
        if isinstance(x.kind_flag, Literal):
            return bool(x.kind_flag.value == KIND_NONE)
        return emit("equal", [Tracer(x.kind_flag), np.int8(KIND_NONE)], {"weak": True})
    return x is None


def _lists_in(state, names, frame):
    """Python lists among the variables of a traced `if` or loop that appends to them could
    make ``GrowingList``s of: {position: their items now}."""
    return {i: list(v) for i, v in enumerate(state)
            if type(v) is list and not names[i].startswith("_nptf__") and
            not reachable_elsewhere(v, names[i], frame)}


def _take_changes(state, lists):
    """What a trace did to the lengths of the lists of ``_lists_in``: {position: (the
    items it put in them, whether it only appended, the items it left)}; those lists are
    put back as they were. A list that lost items (``pop``) or took them elsewhere than
    at its end (``insert``) becomes a ``GrowingList`` too, whose methods then do the
    same to its rows."""
    out = {}
    for i, before in lists.items():
        v = state[i]
        if type(v) is not list or len(v) == len(before):
            # Unchanged, or items replaced in place (``lst[0] = v``, a pop and an append):
            # a list of that length, which a loop carries item by item and a traced `if`
            # refuses as a changed Python object.
            continue
        appended = len(v) > len(before) and all(a is b for a, b in zip(v, before))
        ids = {id(b) for b in before}
        out[i] = (v[len(before):] if appended else [x for x in v if id(x) not in ids],
                  appended, list(v))
        v[:] = before
    return out


# For one trace: marked when code inside a `try` with `except` handlers runs.
_CATCHES = contextvars.ContextVar("nptf_catches", default=None)


@contextlib.contextmanager
def recording_catches():
    """Within: a trace notes whether the function runs code under `except` handlers;
    yields a list that is non-empty if it does."""
    seen = []
    token = _CATCHES.set(seen)
    try:
        yield seen
    finally:
        _CATCHES.reset(token)


class inside_try:
    """The body of a `try` with `except` handlers, in converted code. The graph cannot run
    the handlers when an error NumPy raises from the data (a check, a singular matrix)
    comes up as it runs: the call then runs with NumPy, whose run takes the handler (see
    ``TracedFunction.catches``)."""

    def __enter__(self):
        seen = _CATCHES.get()
        if seen is not None:
            seen.append(True)

    def __exit__(self, *exc):
        return False


def raised_handler(probe, args, handlers, where=""):
    """For one statement of a `try` body (``probe(*args)`` runs it, the variables it binds
    its own): 0 where no error the data raise can reach a handler, else a traced int
    that is, when the graph runs, 0 or 1 + the index in ``handlers`` (the `except`
    clauses' types, None for a bare `except`) of the handler Python would run.

    The statement is traced once by itself, its checks (a singular matrix, a float
    division by zero) met instead of raised, and its Python state put back: the first
    check that fails, in the order Python meets them, decides; an error of another type
    first reaches no handler. The converted `try` then runs that handler or the statement
    as the data choose (a traced `if`), so the graph takes the handler itself, where it
    would otherwise run the call with NumPy. A statement that prints, draws random
    numbers, checks inside loops or branches of its own, or fails to trace gives 0."""
    if current_builder() is None:
        return 0
    outer = sys._getframe(1)
    grown = _lists_reached([_cell_contents_now(c) for c in probe.__closure__ or ()] +
                           list(args) + list(outer.f_locals.values()))
    if grown is None:
        return 0
    saved = [(g, saved_state(g)) for g in grown]
    scope = _scope(outer)
    met = []
    token = _in_graph_control_flow.set(True)
    try:
        with write_frame() as frame, building() as builder:
            checks = CHECKS_MET.set((builder, met))
            try:
                probe(*args)
                oks = [to_tracer(np.all(Tracer(ok))).atom for _, ok in met]
            except Exception:   # noqa: BLE001  (raised again where the statement runs)
                return 0
            finally:
                CHECKS_MET.reset(checks)
                restore(frame)
    finally:
        _in_graph_control_flow.reset(token)
        scope.put_back()
        for g, state in saved:
            restore_state(g, state)
    if any(params.get("when_read", params.get("error") in RAISED_WHEN_READ)
           for params, _ in met):
        return 0            # raised only where a value is read: not the statement's order
    chosen = [_handler_of(params, handlers) for params, _ in met]
    if not any(h is not None for h in chosen):
        return 0
    graph, free = _close(builder, oks)
    if any(has_effects(e) or e.op.name == "random" for e in all_eqns(graph)):
        return 0
    graphs, free = _unify_free([(graph, free)] * 2, 0)
    true = to_tracer(np.True_).atom
    oks = current_builder().emit("cond", [true] + free, {"branches": tuple(graphs)}, where)
    taken, clear = 0, None
    for ok, h in zip(oks, chosen):
        ok = Tracer(ok)
        if h is not None:
            first = np.logical_not(ok) if clear is None else \
                np.logical_and(clear, np.logical_not(ok))
            taken = np.where(first, np.int8(h + 1), taken)
        clear = ok if clear is None else np.logical_and(clear, ok)
    return taken


def _lists_reached(values, depth=3):
    """The lists the data grow among ``values`` (and in the Python containers they are),
    whose state a statement traced by itself may change and ``raised_handler`` puts back;
    None where a dict, set or table of nptf's own is among them (its contents are not put
    back)."""
    found, seen = [], set()
    todo = [(v, 0) for v in values]
    while todo:
        v, d = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, GrowingList):
            found.append(v)
        elif isinstance(v, (TracedDict, TracedSet, BucketTable)):
            return None
        elif d < depth and type(v) in (list, tuple):
            todo += [(x, d + 1) for x in v]
        elif d < depth and type(v) is dict:
            todo += [(x, d + 1) for x in v.values()]
    return found


def _handler_of(params, handlers):
    """The index of the handler that catches the error a check raises; None for none (or
    for a check that is not the user's error: nptf's own refusal when the graph runs)."""
    cls = ERRORS.get(params.get("error"))
    if cls is None or params.get("error") == "OutsideTheGraph":
        return None
    for i, h in enumerate(handlers):
        try:
            if h is None or issubclass(cls, h):
                return i
        except TypeError:           # not a class: Python raises its own error there
            return None
    return None


def tail_arguments(fn, args, kwargs):
    """The parameters of ``fn`` as ``fn(*args, **kwargs)`` binds them, in order: a tail
    call of itself made a loop (``tail_calls``)."""
    sig = _SIGNATURES.get(fn)
    if sig is None:
        sig = _SIGNATURES[fn] = inspect.signature(fn)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(bound.arguments.values())


_SIGNATURES = weakref.WeakKeyDictionary()


def tail_depth(depth, where):
    """The depth of a tail call made a loop: past Python's recursion limit, Python's
    RecursionError (a traced depth: the call runs with NumPy, which raises it)."""
    limit = sys.getrecursionlimit()
    if not _is_traced(depth):
        if depth + 1 >= limit:
            raise RecursionError(f"maximum recursion depth exceeded\n  at {where}")
        return depth + 1
    depth = depth + 1
    return emit("check", [depth, depth < limit], {
        "error": "OutsideTheGraph", "weak": True,
        "message": f"a recursion deeper than Python's recursion limit ({limit}), which "
                   f"Python's run raises RecursionError for, at {where}"}, scalar=True)


def reraise_own(error):
    """At the top of an `except` handler in converted code: nptf's own errors (a construct
    it cannot trace) are not the user's to handle; they stop the trace."""
    if isinstance(error, Error):
        raise error


def exception_of(cls, make):
    """``raise cls(...)`` in converted code: the exception ``make()`` builds; while tracing,
    where building it needs the Python value of a traced value (a message that formats
    one), an exception of a class of ``cls``'s name that nptf raises only by running
    NumPy (see ``_one_branch_raises``), whose run builds the message."""
    if current_builder() is None:
        return make()
    try:
        made = make()
        if any(isinstance(a, Text) for a in getattr(made, "args", ())):
            refuse("the message of an exception")
        return made
    except TracerConversionError as e:
        # Outside a traced branch or loop, the function raises on every call: nptf's
        # refusal stands (the call runs with NumPy).
        if not (isinstance(cls, type) and issubclass(cls, BaseException)) or \
                not _in_graph_control_flow.get():
            raise
        stand_in = type(cls.__name__, (cls,), {"__module__": cls.__module__,
                                                "__qualname__": cls.__qualname__})
        try:
            return stand_in("a message made of values known only when the graph runs")
        except Exception:   # noqa: BLE001  (a class that takes other arguments)
            raise e from None


def _raised_by_user_code(error):
    """Whether ``error`` comes from the user's own code (a ``raise`` or ``assert`` there,
    Python's arithmetic in it), not from nptf (a construct it cannot trace), NumPy or
    another library: only such a branch is one that raises whenever it runs."""
    if isinstance(error, Error):
        return False
    if getattr(error, "nptf_read_unbound", False):
        return True
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and in_user_code(tb.tb_frame.f_code.co_filename)


def _numpy_error(error):
    """Whether ``error`` is an error of NumPy's kind (a ufunc's casting ``TypeError``, a
    broadcasting ``ValueError``, an ``IndexError``) that tracing a path raised outside
    the user's code: the path's types alone raise it, so NumPy raises it too where the
    data take that path (``a += h``, a float into an int array, under a flag the data
    set). nptf's own refusals are not."""
    return isinstance(error, (TypeError, ValueError, IndexError, ArithmeticError)) and \
        not isinstance(error, Error)


def _one_branch_raises(cond, raised, true_fn, false_fn, state, where):
    """An `if` on a traced value one of whose paths raises (``if A[p, k] == 0: raise
    ValueError("singular")``): the other path runs, and a check raises the same error
    after the run where the data take the raising path. An error tracing raised outside
    the user's code (see ``_numpy_error``) is NumPy's to give: where the data take that
    path, the call runs NumPy."""
    ((taken, error),) = raised.items()
    cond = api.astype(to_tracer(cond), np.bool_)
    fine = np.logical_not(cond) if taken else cond
    name = type(error).__name__
    # Raised whether or not a value is read (RAISED_WHEN_READ checks are not).
    known = ERRORS.get(name) is type(error) and name not in RAISED_WHEN_READ and \
        _raised_by_user_code(error)
    message = f"{error}\n  at {where}" if known else \
        f"the `if` at {where} raises {name}: {error}, which nptf raises only by running " \
        f"NumPy"
    emit("check", [cond, fine], {"error": name if known else "OutsideTheGraph",
                                 "message": message})
    return tuple((false_fn if taken else true_fn)(*state))


def _both_raise(first, second, where):
    """Both paths of an `if` on a traced value raise: NumPy raises whichever the data
    choose; the same error from both is raised now."""
    if type(first) is type(second) and str(first) == str(second):
        raise second
    raise unsupported(f"an `if` on a traced value whose paths raise different errors "
                      f"({type(first).__name__}, {type(second).__name__})", where,
                      fix="Let the function run with NumPy (fallback='numpy', the default).")


def _python_zero(dtype):
    """A Python number zero of the kind a weak ``dtype`` stands for (``False`` too: a
    Python bool, as ``_atom_of`` makes one, not a NumPy bool)."""
    return Tracer(_atom_of(python_type_of(dtype)(0), "", ""), is_scalar=True)


def _stand_in(value):
    """A zero of ``value``'s type and kind (a Python number, a NumPy scalar or an array),
    for the path of an `if` that never gives the value: it takes the other's kind, so
    the call does not hand back a type that path cannot have."""
    if isinstance(value, GrowingList):
        return grown([], value.item)        # a list of such items, with none
    if value.type.weak:
        return _python_zero(value.dtype)
    # Made here, from the type alone: ``value`` is the other path's (its sizes known only
    # at run time are 0 here, as nothing reads them on this path).
    zero = api.zeros(tuple(0 if d is None else d for d in value.type.shape), value.dtype)
    out = Tracer(zero.atom, is_scalar=value.is_scalar)
    out.kind_flag, out.kinds = value.kind_flag, value.kinds
    return out


def _scope(frame):
    """A snapshot of the Python objects the converted code around a traced statement
    reaches through its variables (its own and those of enclosing functions it uses)."""
    return Snapshot(((k, v) for k, v in frame.f_locals.items() if not k.startswith("_nptf__")),
                    frame=frame)


def _writable_array(x):
    """An array object that in-place writes change (NumPy scalars and Python numbers rebind)."""
    return isinstance(x, Tracer) and x.choice is None and not x.is_scalar and \
        not x.type.weak and not isinstance(x, ListTracer)


class _into:
    """Emit into an already-traced builder (to cast or complete its outputs)."""

    def __init__(self, builder):
        self.builder = builder

    def __enter__(self):
        self._token = _current.set(self.builder)

    def __exit__(self, *exc):
        _current.reset(self._token)


# ------------------------------------------------------------------ while
# The variables the loop being traced binds in its body before reading them (the
# converter's ``nptf_bound_first`` on the body): their values from before an iteration
# are never read.
_BOUND_FIRST = contextvars.ContextVar("nptf_bound_first", default=frozenset())


def _noting_bound_first(loop):
    """``loop`` (a statement's converter) with its body's ``nptf_bound_first`` noted while
    it runs, and its caller's frame (the converted function's) handed on."""
    @functools.wraps(loop)
    def traced(first, body_fn, *args, **kwargs):
        kwargs.setdefault("frame", sys._getframe(1))
        token = _BOUND_FIRST.set(frozenset(getattr(body_fn, "nptf_bound_first", ())))
        try:
            return loop(first, body_fn, *args, **kwargs)
        finally:
            _BOUND_FIRST.reset(token)
    return traced


@_noting_bound_first
def while_stmt(cond_fn, body_fn, state, names, where="", frame=None):
    """``while cond_fn(*state): state = body_fn(*state)`` (``frame``: the caller's)."""
    state = tuple(state)
    while True:
        c = _concrete_condition(cond_fn(*state))
        if isinstance(c, Tracer):
            where = where or user_location()
            if python_loop(where):
                # No graph loop can run it: Python does, on the data's own condition.
                taken = _assumed_condition(c, where)
                if taken is not None:
                    if not taken:
                        return state
                    state = tuple(body_fn(*state))
                    continue
            try:
                return _traced_while(c, cond_fn, body_fn, state, names, where,
                                     frame or sys._getframe(1))
            except Error:
                if guess(c) is not None:
                    decline_loop(where)
                raise
        if not c:
            return state
        state = tuple(body_fn(*state))


def _assumed_condition(c, where, statement="`while`"):
    """The Python bool the data of the call being traced give the condition ``c`` of the
    ``statement`` at ``where``, which the graph checks (``tracer.assumed_value``); None
    where the trace cannot tell."""
    found = assumed_value(c, f"the condition of the {statement} at {where}")
    return None if found is None else bool(found)


def _traced_while(c, cond_fn, body_fn, state, names, where, frame):
    """``while_stmt`` of a condition ``c`` on traced values: a graph loop."""
    cells = _written_lists([body_fn], frame)
    if cells:
        # The Python lists the body writes items of, carried as arrays (see
        # ``_index_loop``).
        n = len(state)
        carried = _cells_now(cells)
        try:
            out = _graph_while(
                lambda *st: _with_cells(cells, st[n:], lambda *a: (cond_fn(*a),),
                                        *st[:n])[0],
                lambda *st: _with_cells(cells, st[n:], body_fn, *st[:n]),
                state + carried, tuple(names) + _cell_names(cells), where, frame,
                grow=True)
        except Exception:   # noqa: BLE001  (traced again below, as written)
            _cells_put_back(cells, carried)
        else:
            return _cells_after_loop(cells, out, n)
    try:
        return _graph_while(cond_fn, body_fn, state, names, where, frame, grow=True)
    except _PythonOnlyBody as e:
        cells = _attribute_cells(e)
        if not cells:
            raise _loop_unsupported(e, where) from None
    # Attributes of objects the body rebinds (``self.w -= lr * dw``): carried.
    n = len(state)
    carried = _cells_now(cells)
    try:
        with carrying_attributes([_carried_pair(c) for c in cells]):
            out = _graph_while(
                lambda *st: _with_cells(cells, st[n:], lambda *a: (cond_fn(*a),),
                                        *st[:n])[0],
                lambda *st: _with_cells(cells, st[n:], _uncarried(body_fn), *st[:n]),
                state + carried, tuple(names) + _cell_names(cells), where, frame,
                grow=True)
    except _PythonOnlyBody as e:
        _cells_put_back(cells, carried)
        raise _loop_unsupported(e, where) from None
    except Exception:
        _cells_put_back(cells, carried)
        raise
    _cells_put(cells, out[n:])
    return out[:n]


def _is_value(v):
    return isinstance(v, Tracer) or isinstance(v, (bool, int, float, complex, np.generic)) or \
        (isinstance(v, np.ndarray) and v.dtype.kind in "biufc")


class _LoopHints:
    """What earlier traces of each loop (by source line and variables) found, for one
    function's trace: a loop nested in another is traced again with every trace of the
    outer body, and a loop unrolled around it repeats it; starting from what it found
    before saves a retrace each time (without it, four nested loops that write an outer
    array trace the innermost body 2**4 times)."""

    def __init__(self, top):
        self.top, self.seen, self.outer = top, 0, set(top.inputs)
        self.buffers, self.in_place = {}, {}

    def update(self):
        """Values of the function's own graph so far: buffers whose memory they are
        existed before every loop traced from here, so are safe to carry from the start."""
        for e in self.top.eqns[self.seen:]:
            self.outer.update(e.outputs)
        self.seen = len(self.top.eqns)


_HINTS = contextvars.ContextVar("nptf_loop_hints", default=None)


# Whether the loop being traced may carry a ragged list (``ragged_lists``): one whose trip
# count is known when tracing runs unrolled instead, where the list is Python's own.
_RAGGED = contextvars.ContextVar("nptf_ragged_lists", default=True)


def _graph_while(cond_fn, body_fn, state, names, where, frame, runs_once=False, grow=False,
                 ragged=True):
    token, made = _RAGGED.set(ragged), MADE_AT.set(where)
    try:
        return _graph_while_hinted(cond_fn, body_fn, state, names, where, frame, runs_once,
                                   grow)
    finally:
        _RAGGED.reset(token)
        MADE_AT.reset(made)


def _graph_while_hinted(cond_fn, body_fn, state, names, where, frame, runs_once, grow):
    hints = _HINTS.get()
    top = current_builder()
    while top.parent is not None:
        top = top.parent
    # Hints are this trace's: a loop first met inside a branch (no loop of the function's
    # own graph before it) must not start from another trace's, whose values this graph
    # does not have.
    if hints is None or hints.top is not top:
        hints = _LoopHints(top)
        _HINTS.set(hints)
        hints.update()
    elif not _in_graph_control_flow.get():      # in the function's own graph
        hints.update()
    scope = _scope(frame)
    try:
        try:
            return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                     runs_once, frame if grow else None)
        except _ReturnedContainer as e:
            # ``return lam, v, i`` inside the loop: the tuple is carried item by item, from
            # zeros of the items' kinds (the path that never returns never reads them).
            scope.put_back()
            state = list(state)
            for i, value in e.values.items():
                none_before = state[i] is None
                if isinstance(value, NoneOr):
                    value = value.value
                leaves, treedef = _container_leaves(value)
                state[i] = tree.unflatten(treedef, [_zero_like_value(v) for v in leaves])
                if none_before:     # ``return None`` before the loop: None until it returns
                    state[i] = NoneOr(True, state[i])
            return _graph_while_flat(cond_fn, body_fn, tuple(state), names, where, hints,
                                     scope, runs_once, frame if grow else None)
    except BaseException:
        # The traces of the body changed Python objects as if it ran (a list it appends
        # to): Python runs the loop next (unrolled), or the call runs with NumPy.
        scope.put_back()
        raise


class _Retyped(ControlFlowError):
    """A carried variable whose dtype or rank the loop body changes (``index``: its
    position in the loop's state)."""

    def __init__(self, index, message):
        super().__init__(message)
        self.index = index


def _retyped_error(e):
    """The user's error for ``_Retyped`` ``e``; ``retyped`` marks it for a loop of a known
    trip count, which runs its first iteration in Python and loops over the rest."""
    error = ControlFlowError(str(e))
    error.retyped = True
    return error


class _WidenedKeys(Exception):
    """A dict carried by a graph loop that the body gives keys it may not have had
    before (``value``: the body's ``MaybeKeys``, at state ``position``)."""

    def __init__(self, position, value):
        super().__init__("a dict whose keys the loop body changes")
        self.position, self.value = position, value


class _ReturnedContainer(Exception):
    """A ``return`` of a tuple, list or dict inside a graph loop, found by tracing the
    body: ``values`` holds, by state position, what the body returns."""

    def __init__(self, values):
        super().__init__("a container returned inside a loop")
        self.values = values


def _zero_like_value(v):
    """A zero of ``v``'s type and kind (a Python number, a NumPy scalar or an array)."""
    if not isinstance(v, Tracer):
        return type(v)(0) if type(v) in PYTHON_TYPES else np.zeros_like(v)[()] \
            if isinstance(v, np.generic) else np.zeros_like(v)
    if v.type.weak:
        return _python_zero(v.dtype)
    if None in v.shape or (v.kind_flag is not None and (
            v.ndim or not v.kinds or min(v.kinds) < KIND_ARRAY)):
        raise _PythonOnlyBody("the return value holds an array of a size known only at run "
                              "time, or a value whose kind the data choose")
    zero = Tracer(api.zeros(v.shape, v.dtype).atom, is_scalar=v.is_scalar)
    if v.kind_flag is not None:
        # A number that is a Python number or a NumPy scalar as the data choose (``x =
        # x0``, then ``x = x - fx / dfx``, returned on convergence): one of its kinds,
        # which the loop carries beside it (never read where the loop does not return).
        kind = min(v.kinds)
        zero.kind_flag, zero.kinds = api.to_atom(np.int8(kind)), frozenset({kind})
    return zero


def _refuse_held_rows(named):
    """A loop variable (``named``: (value, name) pairs) holding a list the body appends
    as an item to a list the graph carries (``keep = row`` after ``h.append(row)``): after
    the loop it would be a list of its own, not that item, so Python runs the body."""
    held = appended_held([v for v, _ in named], [n for _, n in named])
    if held is not None:
        raise _PythonOnlyBody(f"`{held}` holds a list the body appends as an item to a list, "
                              f"which the graph keeps as a row of that list")


def _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope, runs_once, grow,
                      whole=frozenset(), lists=frozenset()):
    containers = _LoopContainers(state, names, whole, lists)
    try:
        if not containers.any:
            return _graph_while_traced(cond_fn, body_fn, state, names, where, hints, scope,
                                       runs_once, grow)
        flat = _graph_while_traced(containers.cond(cond_fn), containers.body(body_fn),
                                   containers.state, containers.names, where, hints, scope,
                                   runs_once, grow)
    except _AppendedList as e:
        # A list of numbers the body appends to: a list, not its items (a GrowingList
        # where the data decide how long it grows).
        scope.put_back()
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole | {e.position}, lists)
    except _PythonOnlyBody as e:
        # Lists a dict holds that the body appends to (``history["loss"].append(v)``):
        # each one carried whole, as a list variable is.
        found = _appended_dict_lists(e, state) if grow is not None else None
        if not found or found <= lists:
            raise
        scope.put_back()
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists | found)
    except _WidenedKeys as e:
        scope.put_back()
        carried = widened(state[e.position], e.value, _zero_like_value)
        if carried is None:
            raise _PythonOnlyBody(f"`{names[e.position]}` changes its keys inside the loop, "
                                  f"in another order than before it") from None
        state = tuple(carried if k == e.position else v for k, v in enumerate(state))
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists)
    except _RetypedDict as e:
        scope.put_back()
        state = tuple(empty_of(e.spec) if k == e.position else v for k, v in enumerate(state))
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists)
    except TypedByAppend as e:
        # The first append to a table the body read rows of while they were empty.
        scope.put_back()
        state = tuple(e.spec.of_list(v.spec.identity) if isinstance(v, BucketTable) and
                      v.spec.item is None and v.spec.identity is e.spec.identity else v
                      for v in state)
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists)
    except UnsupportedError as e:
        # A row of a Python list of empty lists read at a traced position: carried as a
        # table with no items yet, typed by the body's first append.
        lst = getattr(e, "read_before_append", None)
        if lst is None or not builtins.any(v is lst for v in state):
            raise
        scope.put_back()
        state = tuple(untyped(v) if v is lst else v for v in state)
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists)
    except _ListToRagged as e:
        scope.put_back()
        if not _RAGGED.get():
            raise _PythonOnlyBody("the loop body appends arrays of lengths the data choose "
                                  "to a list") from None
        if not builtins.any(v is e.lst for v in state):
            raise _PythonOnlyBody("the loop body appends arrays of lengths the data choose "
                                  "to a list held in a container") from None
        # (Carried as its two arrays, not whole as the Python list was.)
        whole = frozenset(k for k in whole if state[k] is not e.lst)
        state = tuple(e.spec.of_list(v) if v is e.lst else v for v in state)
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists)
    except _ListToBuckets as e:
        scope.put_back()
        before = state[e.position]
        if isinstance(before, Undefined):
            if not runs_once:
                # Python has no value for it where the loop runs no step.
                raise _PythonOnlyBody(f"`{names[e.position]}`, first bound inside the loop, "
                                      f"is a list of lists appended to at traced positions")
            # First bound inside a loop that runs: only its value on the last step counts.
            before = [[] for _ in range(e.spec.n)]
        state = tuple(e.spec.of_list(before) if k == e.position else v
                      for k, v in enumerate(state))
        return _graph_while_flat(cond_fn, body_fn, state, names, where, hints, scope,
                                 runs_once, grow, whole, lists)
    # A table no append typed holds the empty lists it held before the loop.
    return tuple(v.spec.identity if isinstance(v, BucketTable) and v.spec.item is None else v
                 for v in containers.result(flat))


def _container_leaves(value, lists=()):
    """The leaves and structure of a tuple, list or dict of arrays and numbers (or of a
    ``NoneOr`` of one), or of a dict keyed by traced values (its keys and rows, none
    while no key typed it); else None. ``lists``: keys of a dict whose values are lists
    the loop appends to, each one leaf (carried whole, as a list variable is)."""
    if isinstance(value, _NODES):
        return tree.flatten(value)
    if type(value) not in (tuple, list, dict, NoneOr):
        return None
    held = [value[k] for k in lists if k in value] if type(value) is dict else []
    if len(held) != len(lists):
        return None
    leaves, treedef = tree.flatten(value, (lambda x: any(x is h for h in held)) if held else None)
    whole = [any(v is h for h in held) for v in leaves]
    # None among the items: a sentinel the loop may replace (``best = (np.inf, None)``).
    if not (held or any(_is_value(v) for v in leaves)) or \
            not all(w or (_is_value(v) or v is None) and not isinstance(v, ListTracer)
                    for v, w in zip(leaves, whole)):
        return None
    return leaves, treedef


def _list_length(treedef, key):
    """The length of the list at ``key`` of the dict ``treedef`` describes, else None."""
    if treedef.kind != "dict" or key not in treedef.meta:
        return None
    child = treedef.children[treedef.meta.index(key)]
    return child.meta if child.kind == "list" else None


def _appended_dict_lists(error, state):
    """{(position, key)} of the lists a body only Python can run changed (``error``),
    when all it changed are lists, each a value of a plain dict among the loop's
    variables; else None."""
    if getattr(error, "dict_lists", None):
        return error.dict_lists
    found = set()
    for lst in getattr(error, "changed_lists", ()):
        at = [(k, key) for k, d in enumerate(state) if type(d) is dict
              for key, v in d.items() if v is lst]
        if len(at) != 1:
            return None
        found |= set(at)
    return frozenset(found) if found and len(error.changed) == len(found) else None


def _leaf_names(name, treedef):
    if treedef.kind == "leaf":
        return [name]
    keys = treedef.meta if treedef.kind == "dict" else range(len(treedef.children))
    return [n for k, c in zip(keys, treedef.children) for n in _leaf_names(f"{name}[{k!r}]", c)]


class _LoopContainers:
    """Loop variables that hold a tuple, list or dict of arrays (``model = {"W": W - lr *
    dW, ...}`` on every epoch, or ``params = update(params, grads)`` with ``update``
    writing into the dict) are carried as one variable per element, as long as the body
    keeps their structure (the same keys, the same length): a graph loop then carries
    them like any array. A body that changes the structure (``xs[t] = ...`` with new
    keys, ``append``) runs in Python, unrolled where the trip count is known."""

    def __init__(self, state, names, whole=frozenset(), lists=frozenset()):
        self.plan, flat_state, flat_names = [], [], []
        for k, (value, name) in enumerate(zip(state, names)):
            keys = tuple(key for position, key in sorted(lists, key=repr) if position == k)
            if type(value) is dict:
                # A list of the dict that an earlier loop made grow: carried whole too.
                keys += tuple(key for key, v in value.items()
                              if isinstance(v, GrowingList) and key not in keys)
            found = _container_leaves(value, keys) if k not in whole else None
            if found is None:
                self.plan.append(None)
                flat_state.append(value)
                flat_names.append(name)
                continue
            leaves, treedef = found
            self.plan.append((treedef, len(leaves), name, keys))
            flat_state += leaves
            flat_names += _leaf_names(name, treedef)
        # A list of lists (or a variable first bound in the body) may become a table the
        # body appends to at traced positions.
        self.any = any(p is not None for p in self.plan) or any(
            type(v) is list and v and all(type(r) is list for r in v) or
            type(v) is Undefined for v in state)
        self.originals = list(state)
        self.state, self.names = tuple(flat_state), tuple(flat_names)
        self.in_place = [False] * len(self.plan)

    def _rebuild(self, flat):
        out, it = [], iter(flat)
        for step in self.plan:
            out.append(next(it) if step is None else
                       tree.unflatten(step[0], [next(it) for _ in range(step[1])]))
        return out

    def _flatten(self, values, given):
        out = []
        for k, (step, value) in enumerate(zip(self.plan, values)):
            if isinstance(value, BucketTable) and not isinstance(given[k], BucketTable):
                # The body appends to a list of lists at a traced position: the loop
                # carries the table of its rows from before the loop.
                raise _ListToBuckets(k, value.spec)
            if step is None:
                out.append(value)
                continue
            found = _container_leaves(value, step[3])
            if step[0].kind == "list" and (isinstance(value, (GrowingList, RaggedList)) or (
                    type(value) is list and value is given[k] and len(value) != step[0].meta)):
                raise _AppendedList(k)
            if isinstance(value, TracedDict) and isinstance(given[k], TracedDict):
                spec = joined(given[k].spec, value.spec)
                if spec is not None and spec != given[k].spec:
                    # The body typed a dict empty before the loop (its first item).
                    raise _RetypedDict(k, spec)
            if isinstance(value, MaybeKeys) and (found is None or found[1] != step[0]) and \
                    (type(given[k]) is dict or isinstance(given[k], MaybeKeys)):
                # Keys the body gives that the dict may not have had before: carried, each
                # with whether it is there.
                raise _WidenedKeys(k, value)
            if found is None or found[1] != step[0]:
                error = _PythonOnlyBody(f"`{step[2]}` changes its structure (its keys, length "
                                        f"or the kinds of its items) inside the loop")
                if type(value) is dict and value is given[k]:
                    # Lists of its items the body appended to (lists rebuilt from the
                    # items carried): carried whole on the next try.
                    error.dict_lists = frozenset(
                        (k, key) for key, v in value.items() if type(v) is list and
                        key not in step[3] and _list_length(step[0], key) not in (None, len(v)))
                raise error
            # The body hands back the container it was given, written into: after the
            # loop, the container from before holds the values.
            self.in_place[k] = value is given[k]
            out += found[0]
        return out

    def cond(self, cond_fn):
        return lambda *flat: cond_fn(*self._rebuild(flat))

    def body(self, body_fn):
        def run(*flat):
            given = self._rebuild(flat)
            outs = body_fn(*given)
            _refuse_held_rows([(o, p[2]) for o, p in zip(outs, self.plan) if p is not None])
            return tuple(self._flatten(outs, given))
        return run

    def result(self, flat):
        out = self._rebuild(flat)
        for k, (step, original) in enumerate(zip(self.plan, self.originals)):
            if step is None or not self.in_place[k] or type(original) not in (list, dict):
                continue
            if type(original) is dict:
                original.clear()
                original.update(out[k])
            else:
                original[:] = out[k]
            out[k] = original
        return tuple(out)


def _graph_while_traced(cond_fn, body_fn, state, names, where, hints, scope, runs_once=False,
                        grow=None):
    """``grow``: the frame of a loop whose trip count is known only at run time, whose
    body may append to Python lists (they become ``GrowingList``s); None otherwise."""
    state = list(state)
    lists = _lists_in(state, names, grow) if grow is not None else {}
    for name, v in zip(names, state):
        if isinstance(v, ComputedList) and not isinstance(v, GrowingList):
            # A list of run-time length the body may rebind to another length (``nodes =
            # [nodes[k] for k in keep] + [new_id]``): Python's to run.
            raise _PythonOnlyBody(f"`{name}` holds a list of run-time length")
        if isinstance(v, ListTracer) and not isinstance(v, GrowingList):
            # The graph loop's variable would be an array, where Python keeps a list.
            raise unsupported(f"a loop on traced values assigning variable `{name}`, which "
                              f"holds a list argument,", where,
                              fix="Convert it first (np.asarray(x)) if array arithmetic is meant.")
    carried = [i for i, v in enumerate(state) if _is_value(v)]
    types = {i: _type_of(state[i], names[i], where) for i in carried}
    at_places = _growing_at_places(scope, state)
    key = (where, tuple(names))
    hinted = hints is not None and key in hints.buffers
    buffers = [b for b in hints.buffers[key] if b.origin in hints.outer] if hinted else []
    # Variables whose body keeps them on the array they held before the loop (``U += 1``,
    # ``Z = step(Z)`` with ``step`` writing ``Z`` in place and returning it): they are
    # that array on every iteration, so they are not carried as values; their memory is
    # (as a buffer), and every other name of that memory sees the writes.
    in_place = {i for i in hints.in_place[key] if i in carried and _writable_array(state[i])} \
        if hinted else set()
    carried = [i for i in carried if i not in in_place]
    placeholders_of = {}
    # Whether each carried array is in C order on every iteration: NumPy lays out what
    # the body computes from non-C-ordered arrays (a.T * 2) in their order.
    c_ordered = {i: _c_ordered(state[i]) for i in carried}

    # Variables that are a Python number or a NumPy scalar as the data choose (``best =
    # np.inf``, then ``best = loss`` under a traced ``if``): the loop also carries which
    # one (an int8 kind), as a traced ``if`` returns it, and the call hands back that.
    flagged, kinds_of = [], {}
    # Variables of one element whose rank the data choose (``_widen_types``).
    ranked = {}

    # Carried variables whose value at the end of the body is memory writes cannot be
    # placed in (an array a list holds as an item, ``row_of``): {position: why}. On the
    # next iteration, and after the loop, the variable is that memory.
    held = {}

    def capture(placeholders):
        st = list(state)
        for i, p in zip(carried, placeholders):
            st[i] = state[i].rebuilt(p.atom) if isinstance(state[i], GrowingList) else p
            placeholders_of[i] = p
            if i in held:
                mark_ambiguous(p, held[i])
            if i in ranked:
                st[i] = _with_options(p, ranked[i])
            if not c_ordered[i]:
                p._layout = UNKNOWN
        for b, p in zip(buffers, placeholders[len(carried):]):
            set_buffer(b, p.atom)
        for i, p in zip(flagged, placeholders[len(carried) + len(buffers):]):
            st[i].kind_flag, st[i].kinds = p.atom, kinds_of[i]
        return st

    kind_by_data, set_inside = set(), set()
    marked = {id(b) for b in buffers if b.ambiguous}
    # A value an earlier `if` left of a kind the data choose (None, or a Python number or
    # a NumPy scalar) is one from the first trace: ``best is None`` in the body must not
    # see a plain array.
    for i in carried:
        if isinstance(state[i], Tracer) and isinstance(state[i].kind_flag, Var) and \
                not names[i].startswith("_nptf__"):
            flagged.append(i)
            kinds_of[i] = frozenset(state[i].kinds)
    initial = list(state)
    # Variables whose dtype or rank the body changes, traced again with no value before
    # the loop (``_Retyped``), by position.
    reused = {}
    for _ in range(8):
        in_types = [types[i] for i in carried] + [b.atom.type.strong() for b in buffers] + \
            [_KIND_TYPE] * len(flagged)
        placeholders_of.clear()
        token = IN_GRAPH_LOOP.set(True)
        loops = GRAPH_LOOPS.set(GRAPH_LOOPS.get() + (object(),))
        try:
            body = _run_traced(body_fn, in_types, capture)
        except Exception:
            if reused:
                # The body reads such a variable before it assigns it: it is the loop's.
                raise _retyped_error(next(iter(reused.values()))) from None
            raise
        finally:
            GRAPH_LOOPS.reset(loops)
            IN_GRAPH_LOOP.reset(token)
        _refuse_uncarried_growth(at_places, scope)
        # (a name with no value before the loop is the body's own: unusable after it)
        _refuse_held_rows([(o, n) for o, n, v in zip(body.objects, names, state)
                           if not isinstance(v, Undefined)])
        # The converter's own flags are bools; its return values are the user's values,
        # of the kinds the user's `return`s give (a Python bool, a NumPy bool).
        kind_by_data.update(i for i in carried if isinstance(body.outs[i], Tracer) and
                            body.outs[i].kind_flag is not None and
                            len(body.outs[i].kinds or ()) > 1 and
                            (not names[i].startswith("_nptf__") or
                             names[i].startswith("_nptf__val")))
        if not runs_once:
            # A Python number before the loop that the body makes a NumPy scalar (``total =
            # 0.0``, then ``total = total + x[i]``) stays a Python number if the loop runs
            # no times: which one, the data choose.
            kind_by_data.update(
                i for i in carried if types[i].ndim == 0 and not names[i].startswith("_nptf__")
                and not names[i].startswith("<") and isinstance(_kind_of(state[i]), int)
                and isinstance(_kind_of(body.outs[i]), int)
                and _kind_of(state[i]) != _kind_of(body.outs[i]))
        inputs = body.builder.inputs[len(carried):]
        written = {b for b in body.before
                   if b not in buffers or body.after[b] is not inputs[buffers.index(b)]}
        _refuse_stale_aliases(body, state, carried, placeholders_of, written, names)
        changed = _find_in_place(body, state, carried, placeholders_of, in_place, names,
                                 scope.frame)
        first_set = _define_first_set(body, state, carried, types, c_ordered)
        set_inside |= first_set
        changed |= bool(first_set)
        nones = _carry_none_sentinels(body, state, carried, types, c_ordered, names, where)
        kind_by_data |= nones
        changed |= bool(nones)
        changed |= _widen_written_lists(body, state, carried, types)
        try:
            changed |= _widen_types(body, carried, types, names, where, state, ranked)
        except _Retyped as e:
            i = e.index
            if not runs_once or i in reused or i in flagged or names[i].startswith("_nptf__") \
                    or isinstance(state[i], (GrowingList, ListTracer)):
                raise _retyped_error(e) from None
            # A name the body may assign before it reads it, for a value of another dtype
            # or rank (``denominator`` of a sum, then of a vector): where the loop runs at
            # least once, its value before the loop is never read, and the body's own
            # starts it (``_define_first_set``).
            reused[i] = e
            state[i] = Undefined(names[i])
            carried.remove(i)
            types.pop(i)
            c_ordered.pop(i, None)
            continue
        unbound = _carry_unbound(body, state, carried, types, c_ordered, names)
        kind_by_data |= unbound
        changed |= bool(unbound)
        changed |= _carry_return_value(body, state, carried, types, names, where, runs_once)
        changed |= _carry_growing_lists(body, state, carried, types, c_ordered, lists)
        changed |= _weaken_growing_lists(body, state)
        changed |= _hold_ambiguous(body, carried, buffers, held, marked)
        for i in carried:
            if c_ordered.setdefault(i, True) and not _c_ordered(body.outs[i]):
                c_ordered[i], changed = False, True
        new_buffers = [b for b in body.before if b not in buffers]
        buffers += new_buffers
        flagged[:] = [i for i in flagged if i in carried]
        for i in sorted(kind_by_data & set(carried)):
            kinds = _kinds_of(state[i]) | (set() if isinstance(body.outs[i], Undefined) else
                                            _kinds_of(body.outs[i]))
            if i not in flagged or not kinds <= kinds_of[i]:
                kinds_of[i] = frozenset(kinds | kinds_of.get(i, set()))
                if i not in flagged:
                    flagged.append(i)
                changed = True
        if not changed and not new_buffers:
            break
    else:
        raise ControlFlowError(f"the loop at {where} changes the shapes of its variables on every "
                               f"iteration; nptf cannot find a shape that holds for all of them.")
    if hints is not None:
        hints.buffers[key], hints.in_place[key] = list(buffers), set(in_place)
    _refuse_changing_containers(body, state, names)
    _check_static_state(body, state, carried + sorted(in_place), names, where)
    changed = scope.changed()
    if changed:
        error = _PythonOnlyBody(f"the loop body changes the Python {changed[0][1]} "
                                f"`{changed[0][0]}`, which only Python can change on every "
                                f"iteration")
        error.changed = changed
        error.changed_lists = [lst for _, lst, _ in scope.changed_lists()]
        error.changed_objects = scope.changed_attributes()
        scope.put_back()
        _hint_keyed_dicts(changed)
        raise error
    in_types = [types[i] for i in carried] + [b.atom.type.strong() for b in buffers] + \
        [_KIND_TYPE] * len(flagged)
    cond = _run_traced(lambda *st: (_concrete_condition_traced(cond_fn(*st), where),), in_types, capture)
    with _into(body.builder):
        body_atoms = [_cast_atom(_atom_of(body.outs[i], names[i], where), types[i]) for i in carried]
        body_atoms += [body.after.get(b, body.builder.inputs[len(carried) + k])
                       for k, b in enumerate(buffers)]
        body_atoms += [_cast_atom(_kind_atom(_kind_of(body.outs[i])), _KIND_TYPE)
                       for i in flagged]
    graphs, free = _unify_free([_close(cond.builder, [cond.outs[0].atom]),
                                _close(body.builder, body_atoms)], len(in_types))
    init = [_cast_atom(_atom_of(state[i], names[i], where), types[i]) for i in carried] + \
        [b.atom for b in buffers] + [_kind_atom(_kind_of(state[i])) for i in flagged]
    ran = _runs_at_least_once(cond_fn, state, initial, set_inside, runs_once, where)
    outs = current_builder().emit("while", init + free, {"cond": graphs[0], "body": graphs[1],
                                                          "n_carried": len(in_types)}, where)
    result = list(state)
    for i, v in zip(carried, outs):
        result[i] = Tracer(v, is_scalar=types[i].ndim == 0)
        if isinstance(state[i], GrowingList):
            result[i] = state[i].rebuilt(v)
        if i in held:
            mark_ambiguous(result[i], held[i])
        if i in ranked:
            result[i] = _rank_after_loop(result[i], ranked[i], body.outs[i], runs_once)
        if not c_ordered[i]:
            result[i]._layout = UNKNOWN
    for k, (b, v) in enumerate(zip(buffers, outs[len(carried):])):
        if body_atoms[len(carried) + k] is body.builder.inputs[len(carried) + k]:
            # An array the body never writes (carried as a hint from another call of the
            # same function says): its value before the loop, which no outer loop then
            # takes for one this loop wrote.
            continue
        set_buffer(b, v)
    for i, v in zip(flagged, outs[len(carried) + len(buffers):]):
        result[i].kind_flag, result[i].kinds = v, kinds_of[i]
    for i, v in enumerate(body.outs):
        if isinstance(state[i], Undefined) and not isinstance(v, Undefined):
            # A ``return None`` in the body: the value returned, wherever the loop
            # returns (its flag says whether it did).
            result[i] = None if v is None and names[i].startswith("_nptf__val") else \
                Undefined(names[i], where)
        elif isinstance(state[i], Undefined) and isinstance(v, Undefined) and v.where and \
                not state[i].where:
            # Assigned on some paths of the body only (``if r < p: i = j; break``): which
            # iteration, if any, assigns it is the data's to say.
            result[i] = Undefined(names[i], v.where, v.like)
    if ran is not None:
        for i in sorted(set_inside):
            if names[i].startswith("_nptf__val"):
                # The value of a `return` in the body, read only where its flag says
                # the body returned, which a loop that never runs does not.
                continue
            # Python has no value for it when the loop never runs: reading it raises.
            out = emit("check", [result[i], ran], {
                "error": "UnboundLocalError", "weak": result[i].type.weak,
                "message": f"cannot access local variable '{names[i]}' where it is not "
                           f"associated with a value (the loop at {where} did not run)"},
                scalar=result[i].is_scalar)
            result[i] = out
    return tuple(result)


def _hold_ambiguous(body, carried, buffers, held, marked):
    """Memory the body made ambiguous (``views.mark_ambiguous``: an array appended to a
    list, which holds it itself in NumPy) stays so on later iterations: carried variables
    whose value at the end of the body is such memory are marked on the next trace and
    after the loop (``held``: {position: why}); written buffers keep their marks
    themselves (``marked``: their ids). True where the body is traced again, so that a
    write before the mark in the body is refused too."""
    changed = False
    for i in carried:
        out = body.outs[i]
        why = held_why(out) if i not in held and isinstance(out, Tracer) and \
            out.choice is None else None
        if why is not None:
            held[i] = why
            changed = True
    for b in list(buffers) + [b for b in body.before if b not in buffers]:
        if b.ambiguous and id(b) not in marked:
            marked.add(id(b))
            changed = True
    return changed


def _define_first_set(body, state, carried, types, c_ordered):
    """Variables the loop body assigns that have no value before the loop (``labels =
    np.argmin(d, axis=1)`` inside, read after it): carried from a zero of the type the
    body gives them, which only a loop that never runs would leave (see
    ``_runs_at_least_once``). Static shapes and one kind of value only; the rest stay
    undefined after the loop, an error when read."""
    found = set()
    for i, (before, out) in enumerate(zip(state, body.outs)):
        if not isinstance(before, Undefined) or not _is_value(out) or i in carried:
            continue
        if isinstance(out, Tracer) and (None in out.shape or out.kind_flag is not None):
            continue
        _start_carrying(i, to_tracer(_zero_like_value(out)), state, carried, types, c_ordered)
        found.add(i)
    return found


def _carry_none_sentinels(body, state, carried, types, c_ordered, names, where):
    """Variables None before the loop that the body gives a value (``best = None``, then
    ``best = loss`` under an `if` on the data): carried with their kind, which says None
    until the data choose otherwise."""
    found = set()
    for i, (before, out) in enumerate(zip(state, body.outs)):
        if before is not None or i in carried or not _is_value(out) or \
                isinstance(out, ListTracer) or (names[i].startswith("_nptf__") and
                                                not names[i].startswith("_nptf__val")):
            continue
        _start_carrying(i, none_stand_in(out, names[i], where), state, carried, types, c_ordered)
        found.add(i)
    return found


def _carry_unbound(body, state, carried, types, c_ordered, names):
    """Variables with no value before the loop that the body assigns on some paths only
    (``if r < p: i = j; break``): carried from a stand-in whose kind says unbound until
    the data take a path that assigns them; a read of one still unbound raises Python's
    UnboundLocalError when the graph runs (see ``Tracer.atom``)."""
    found = set()
    for i, (before, out) in enumerate(zip(state, body.outs)):
        if type(before) is not Undefined or i in carried or names[i].startswith("_nptf__") or \
                not (type(out) is Undefined or _maybe_unbound(out)):
            continue
        # An `if` in the body that assigns it on one path hands back a value whose kind
        # says unbound on the other.
        stand_in = unbound_stand_in(out.like if type(out) is Undefined else out)
        if stand_in is not None:
            _start_carrying(i, stand_in, state, carried, types, c_ordered)
            found.add(i)
    return found


def unbound_stand_in(like):
    """A variable not assigned yet as a value of ``like``'s type: a zero of it whose kind
    says unbound; None where ``like`` is no value of a static shape and one kind."""
    if not _is_value(like) or isinstance(like, ListTracer):
        return None
    like = to_tracer(like)
    if None in like.type.shape or (like.kind_flag is not None and not (
            KIND_UNBOUND in like.kinds and len(like.kinds) == 2)):
        return None
    out = Tracer(to_tracer(_zero_like_value(Tracer(like.carried_atom(), like.is_scalar)))
                 .carried_atom(), is_scalar=like.is_scalar)
    out.kind_flag = api.to_atom(np.int8(KIND_UNBOUND))
    out.kinds = frozenset({KIND_UNBOUND})
    return out


def _carry_growing_lists(body, state, carried, types, c_ordered, lists):
    """Python lists the body appends to where the data decide how often (under an `if` on
    traced values, which hands back a ``GrowingList``; or on every iteration of a loop
    whose trip count is known only at run time, ``lists``): carried as the array of their
    items, of a length known only at run time. True if any."""
    found = False
    changes = _take_changes(state, lists)
    if changes and all(can_grow(lists[i] + items, appended)
                       for i, (items, appended, _) in changes.items()):
        for i, (items, appended, _) in changes.items():
            state[i] = grown(lists[i], common_item(lists[i] + items, appended),
                             per_iteration=len(items) if appended else None,
                             appended=items if appended else ())
            found = True
    else:
        for i, (items, appended, _) in changes.items():
            spec = ragged_spec(lists[i] + items) if appended else None
            if spec is not None:
                # Arrays of lengths the data choose: the loop carries a ragged list.
                raise _ListToRagged(state[i], spec)
        for i, (_, _, after) in changes.items():
            state[i][:] = after     # as the trace left them: the loop is refused below
    for i, (before, out) in enumerate(zip(state, body.outs)):
        if type(before) is list and isinstance(out, RaggedList) and i in lists:
            # An `if` in the body appended arrays of lengths the data choose.
            raise _ListToRagged(before, out.spec)
        if type(before) is list and isinstance(out, GrowingList) and \
                _item_with(out.item, before) is not None:
            state[i] = grown(before, _item_with(out.item, before))
            found = True
    for i, v in enumerate(state):
        if isinstance(v, GrowingList) and i not in carried:
            _start_carrying(i, v, state, carried, types, c_ordered)
    return found


def _weaken_growing_lists(body, state):
    """Lists the body takes items from (``stack.pop()``): before the loop they are known
    to be only as long as after any number of iterations, which is no items at all where
    each iteration may take one; and they no longer grow by a fixed count per iteration.
    True if any changed (the body is traced again)."""
    found = False
    for i, (before, out) in enumerate(zip(state, body.outs)):
        if isinstance(before, GrowingList) and isinstance(out, GrowingList):
            weaker = before.weakest([out])
            if weaker is not None:
                if weaker.least < before.least:
                    weaker = weaker.with_least(0)
                state[i] = weaker
                found = True
    return found


def _item_with(item, values):
    """The item of a list of items ``item`` that also holds ``values``, or None."""
    for v in values:
        item = joined_item(item, item_of(v))
    return item


def _start_carrying(i, value, state, carried, types, c_ordered):
    """Variable ``i``, not carried before, is carried from ``value`` (a stand-in for what
    it holds before the loop, C-ordered): the loop's next trace takes it as state."""
    state[i] = value
    types[i] = _type_of(value, "", "")
    c_ordered[i] = True
    carried.append(i)


def _runs_at_least_once(cond_fn, state, initial, set_inside, runs_once, where):
    """Whether the loop's body runs at least once, as a traced bool, for the variables
    first set inside it; None when that needs no check."""
    if not set_inside or runs_once:
        return None
    st = [s if i in set_inside else v for i, (v, s) in enumerate(zip(initial, state))]
    first = _concrete_condition(cond_fn(*st))
    if not isinstance(first, Tracer):
        return None if first else to_tracer(False)
    return to_tracer(first)


_KIND_TYPE = ArrayType((), np.dtype(np.int8))


def _refuse_stale_aliases(body, state, carried, placeholders_of, written, names):
    """A variable carried as a value whose array before the loop the body writes through
    another name (``u = a[None]``, then ``u[...] = ...; a = 0.9 * a``): on the first
    iteration the variable is that array and sees the write, on later ones it is not; a
    value carried from before the loop would miss the first iteration's write."""
    for i in carried:
        if names[i] in _BOUND_FIRST.get():
            continue        # the body binds it before it reads it: it never reads this value
        v, p = state[i], placeholders_of.get(i)
        if p is not None and _writable_array(v) and v._view is not None and \
                v._view.buffer in written and body.objects[i] is not p:
            raise _PythonOnlyBody(
                f"the loop body writes the array `{names[i]}` holds before the loop through "
                f"another name and binds `{names[i]}` to a new array")


def _find_in_place(body, state, carried, placeholders_of, in_place, names, frame):
    """Move variables the body keeps on their own array into ``in_place`` (True if any moved);
    refuse a body that writes a variable's array in place and then binds it to another,
    but where nothing else reaches that array (``w *= lik``, then ``w = np.ones(n) / n``
    on resampling): its writes are then the variable's new values, as carried."""
    moved = False
    for i in in_place:
        if body.objects[i] is not state[i]:
            raise _PythonOnlyBody(f"the loop body binds `{names[i]}` to a new array on some "
                                  f"iterations and writes into it in place on others")
    for i in list(carried):
        p, obj = placeholders_of.get(i), body.objects[i]
        if p is None:
            continue
        if obj is p and _writable_array(state[i]):
            carried.remove(i)
            in_place.add(i)
            moved = True
        elif _writable_array(p) and p._view is not None and p._view.buffer.written and \
                obj is not p and not _only_through(i, p, state, body, names, frame):
            # The first iteration writes the array the name held before the loop, the
            # others a new one: which memory each write lands in changes as the loop runs.
            raise _PythonOnlyBody(
                f"the loop body writes into `{names[i]}` in place and also binds `{names[i]}` "
                f"to a new array")
    return moved


def _only_through(i, p, state, body, names, frame):
    """Whether variable ``i``'s array before the loop (``state[i]``), and its array in the
    body (the placeholder ``p``), are reached through that variable alone: by no other
    variable, container or caller before the loop, and by no other variable the body
    leaves (which would share the writes on the next iteration)."""
    buffer = p._view.buffer
    if any(isinstance(o, Tracer) and o._view is not None and o._view.buffer is buffer
           for j, o in enumerate(body.objects) if j != i):
        return False
    return frame is not None and not _memory_held_elsewhere([state[i]], names[i], frame)


def _carry_return_value(body, state, carried, types, names, where, runs_once=False):
    """A ``return`` inside a traced loop: carry the return value, starting from zeros.
    So too, in a loop that surely runs once (a trip count known and not zero), every
    variable the body assigns on all its paths (the loop's own variable, ``for ep in
    range(20): ...; return ep``): it is defined after the loop."""
    added = False
    for i, v in enumerate(body.outs):
        if i not in carried and isinstance(state[i], Undefined) and \
                names[i].startswith("_nptf__val") and v is not None and \
                not isinstance(v, Undefined) and not _is_value(v) and \
                _container_leaves(v) is None:
            # ``return "done"`` (or an object) inside the loop: a value no graph loop
            # carries, which the code after the loop reads where the body returned. Python
            # runs the body (unrolled where the trip count is known).
            raise _PythonOnlyBody(f"the return value is a {type(v).__name__}, which a "
                                  f"compiled loop cannot carry out of it")
        if i not in carried and isinstance(state[i], Undefined) and \
                (names[i].startswith("_nptf__val") or
                 (runs_once and not names[i].startswith("_nptf__"))) and _is_value(v):
            t = _type_of(v, names[i], where)
            # Made before the loop, where a size known only at run time inside the body
            # is not known: such an axis starts empty (the value is never read before
            # the body assigns it).
            zero = api.full(tuple(0 if d is None else d for d in t.shape), 0, t.dtype)
            # Of the value's own kind (a Python number, a NumPy scalar or an array): the
            # path that never returns inside the loop never reads it.
            if t.weak:
                zero = _python_zero(t.dtype)
            elif isinstance(v, np.generic) or (isinstance(v, Tracer) and v.is_scalar):
                zero = Tracer(zero.atom, is_scalar=True)
            state[i] = zero
            carried.append(i)
            types[i] = t
            added = True
    return added


def _concrete_condition_traced(c, where):
    c = _concrete_condition(c)
    return c if isinstance(c, Tracer) else to_tracer(np.bool_(c))


def _widen_written_lists(body, state, carried, types):
    """Lists of numbers the body writes a number of another type into (``[0] * n``, then
    ``vals[i] = x[i] / 2``): before the loop they are already of the dtype that holds both
    (see ``GrowingList.write_number``). True if any changed (the body is traced again)."""
    changed = False
    for i in carried:
        before, out = state[i], body.outs[i]
        if isinstance(before, GrowingList) and isinstance(out, GrowingList) and \
                before.dtype != out.dtype:
            state[i] = before.widened(np.result_type(before.dtype, out.dtype))
            types[i] = _type_of(state[i], "", "")
            changed = True
    return changed


def _widen_paths_lists(branches, n):
    """A list of numbers one path of an `if` wrote a number of another type into: on the
    other paths too, of the dtype that holds both."""
    for i in range(n):
        outs = [br.outs[i] for br in branches]
        if not all(isinstance(o, GrowingList) for o in outs) or \
                len({o.dtype for o in outs}) < 2:
            continue
        dtype = np.result_type(*[o.dtype for o in outs])
        for br in branches:
            if br.outs[i].dtype != dtype:
                with _into(br.builder):
                    br.outs[i] = br.outs[i].widened(dtype)


def _widen_types(body, carried, types, names, where, state, ranked):
    """Adjust carried types to what the body produces (weak -> strong, sizes -> unknown);
    a variable of one element the body gives another rank (``running = 0``, then
    ``running = running * gamma + r[t]`` of a column ``r``) is carried at the largest
    rank, with its choice of ranks (``ranked``, see ``_rank_options``)."""
    changed = False
    for i in carried:
        out = body.outs[i]
        if isinstance(out, Undefined):
            raise ControlFlowError(f"variable `{names[i]}` loses its value inside the loop at {where}")
        t_in, t_out = types[i], _type_of(out, names[i], where)
        if t_in.ndim != t_out.ndim or i in ranked or \
                (isinstance(out, Tracer) and out.choice is not None):
            ranks = _rank_options(names[i], [state[i], out], [_type_of(state[i], "", ""), t_out],
                                  where)
            if ranks is not None:
                if ranks != ranked.get(i):
                    ranked[i], types[i], changed = ranks, ranks[0], True
                continue
        if t_in.dtype != t_out.dtype and not t_in.weak and not t_out.weak:
            raise _Retyped(
                i, f"variable `{names[i]}` is {t_in.dtype.name} before the loop at {where} and "
                f"{t_out.dtype.name} after one iteration; a compiled loop needs one dtype. "
                f"Initialise `{names[i]}` as {t_out.dtype.name} before the loop (e.g. "
                f"`{names[i]} = np.{t_out.dtype.name}(0)` or `.astype(np.{t_out.dtype.name})`).")
        # A Python number before the loop takes the body's dtype; a Python number stored
        # into a typed variable is cast to it.
        dtype = t_out.dtype if t_in.weak else t_in.dtype
        if len(t_in.shape) != len(t_out.shape):
            raise _Retyped(i, f"variable `{names[i]}` changes rank inside the loop at {where} "
                              f"({t_in.shape} -> {t_out.shape}); a compiled loop needs one rank.")
        shape = tuple(a if a == b else None for a, b in zip(t_in.shape, t_out.shape))
        new = ArrayType(shape, dtype, t_in.weak and t_out.weak)
        if new != t_in:
            types[i], changed = new, True
    return changed


def _refuse_changing_containers(body, state, names):
    """A tuple, list or dict of arrays that the body makes anew (``return x, i`` inside
    the loop, ``pair = (a, b)``): a graph loop carries arrays and numbers only, so
    Python runs the body (unrolled where the trip count is known). A name the body
    binds before any use and that has no value before the loop (``res = np.divmod(a,
    b)``, read in the same iteration) is the body's own temporary: it is not carried,
    and stays unusable after the loop, so it leaves the loop a graph loop."""
    first = {}
    for i, before in enumerate(state):
        after = body.objects[i]
        if (isinstance(before, Undefined) or before is None) and \
                names[i].startswith("_nptf__val") and _container_leaves(body.outs[i]) is not None:
            first[i] = body.outs[i]
        elif before is None and isinstance(body.outs[i], NoneOr) and \
                _container_leaves(body.outs[i].value) is not None:
            # ``best = None`` before the loop, ``best = (f, t)`` under an `if` on the data.
            first[i] = body.outs[i]
        elif before is None and type(body.outs[i]) in (tuple, list, dict) and \
                _container_leaves(body.outs[i]) is not None:
            # ``best = None`` before the loop, then ``if best is None or g < best[0]:
            # best = (g, f, t)``: the first iteration's test is Python's, the later ones
            # the data's, so the loop carries a container that may be None.
            first[i] = body.outs[i]
    if first:
        raise _ReturnedContainer(first)
    for i, before in enumerate(state):
        after = body.objects[i]
        if isinstance(before, Undefined) and not names[i].startswith("_nptf__val"):
            continue
        if type(after) in (tuple, list, dict) and after is not before and \
                any(isinstance(leaf, Tracer) for leaf in tree.flatten(after)[0]):
            name = "the return value" if names[i].startswith("_nptf__val") else f"`{names[i]}`"
            raise _PythonOnlyBody(f"{name} is a {type(after).__name__} of arrays made on every "
                                  f"iteration")


def _check_static_state(body, state, carried, names, where):
    for i, (before, after) in enumerate(zip(state, body.outs)):
        if i in carried or isinstance(before, Undefined):
            continue
        if after is not before and type(before) in (tuple, list, dict) and \
                type(after) is type(before):
            # A container rebound on every iteration (``model = {"W": W}``): Python runs
            # the body, unrolled where the trip count is known.
            raise _PythonOnlyBody(f"`{names[i]}` is a new {type(before).__name__} on every "
                                  f"iteration")
        if after is not before:
            # Another object on every iteration (``clf = DecisionStump()``): Python runs the
            # body too, unrolled where the trip count is known.
            raise _PythonOnlyBody(
                f"variable `{names[i]}` ({type(before).__name__}) is another object on every "
                f"iteration; only arrays and numbers can change in a compiled loop")


# -------------------------------------------------------------------- for
class range_:
    """``range(...)`` in a converted ``for``: may have traced bounds."""

    def __init__(self, *args):
        if len(args) == 1:
            args = (0, args[0], 1)
        elif len(args) == 2:
            args = (args[0], args[1], 1)
        self.start, self.stop, self.step = args
        if not isinstance(self.step, Tracer) and self.step == 0:
            raise ValueError("range() arg 3 must not be zero")

    def static(self):
        if any(isinstance(a, Tracer) for a in (self.start, self.stop, self.step)):
            return None
        return range(self.start, self.stop, self.step)

    def _python_range(self):
        # Where Python itself iterates (a comprehension nptf does not convert), Python's
        # range: a traced bound raises as its __index__ does.
        return range(*[operator.index(a) for a in (self.start, self.stop, self.step)])

    def __iter__(self):
        return iter(self._python_range())

    def __len__(self):
        return len(self._python_range())


def _range(*args):
    return range_(*args) if any(isinstance(a, Tracer) for a in args) else range(*args)


def reversed_(r):
    """``reversed(range(...))`` in a converted ``for``: the range backwards, of traced
    bounds too (a step known while tracing)."""
    if not isinstance(r, range_):
        return reversed(r)
    static = r.static()
    if static is not None:
        return range_(static[-1] if static else 0, static[0] - static.step if static else 0,
                      -static.step)
    if isinstance(r.step, Tracer):
        raise unsupported("reversed(range(...)) of a traced step",
                          fix="Use a step known when tracing.")
    start, stop, step = (to_tracer(r.start).astype(np.int64),
                         to_tracer(r.stop).astype(np.int64), r.step)
    n = np.maximum((stop - start + (step - 1 if step > 0 else step + 1)) // step, 0)
    return range_(start + (n - 1) * step, start - step, -step)


class count_:
    """``itertools.count(start, step)`` of ints in converted code: an iterator as Python's,
    which a converted ``for`` with a ``break`` on traced values runs as a graph loop (the
    loop's end is the data's to say)."""

    def __init__(self, start=0, step=1):
        self.start, self.step = start, step
        self._it = itertools.count(start, step)
        self.used = False

    def __iter__(self):
        self._python()
        return self._it

    def __next__(self):
        self._python()
        return next(self._it)

    def _python(self):
        if self.used == "graph":
            raise unsupported("itertools.count(...) read again after a graph loop ran over it "
                              "(where that loop stopped, the data decide)",
                              fix="Use a new itertools.count(...) for the second loop.")
        self.used = "python"

    def __repr__(self):
        return repr(self._it)


def _count(start=0, step=1):
    if all(type(v) is int for v in (start, step)) and step != 0:
        return count_(start, step)
    return itertools.count(start, step)


class enumerate_:
    """``enumerate(...)`` in a converted ``for`` or comprehension (of a ``zip(...)`` there
    too, a ``zip_``)."""

    def __init__(self, iterable, start=0):
        self.iterable, self.start = iterable, start

    def python(self):
        inner = self.iterable
        return enumerate(inner.python() if isinstance(inner, zip_) else inner, self.start)


class zip_:
    """``zip(...)`` in a converted ``for`` or comprehension: over traced arrays (of
    lengths known only at run time, ``zip(*R.nonzero())``, or not), a loop over the
    shortest's length reading each one's item ``i``."""

    def __init__(self, *iterables, strict=False):
        self.iterables, self.strict = iterables, strict

    def python(self):
        return zip(*self.iterables, strict=self.strict)

    def items(self):
        """(length, item of index) where every iterable is a traced array or a list the
        data built; None otherwise (Python's zip runs)."""
        if not self.iterables or self.strict:
            return None
        lengths, readers = [], []
        for it in self.iterables:
            if isinstance(it, ComputedList):
                readers.append(it.element_at)
            elif _is_traced(it) and it.ndim:
                readers.append(lambda i, it=it: it[i])
            else:
                return None
            lengths.append(_len(it))
        n = functools.reduce(lambda a, b: b if a is None else (
            builtins.min(a, b) if not isinstance(a, Tracer) and not isinstance(b, Tracer)
            else np.minimum(to_tracer(a), to_tracer(b))), lengths, None)
        return n, lambda i: tuple(read(i) for read in readers)


@_noting_bound_first
def for_stmt(iterable, body_fn, state, names, where="", stop_fn=None, frame=None):
    """``for item in iterable: state = body_fn(item, *state)`` (``stop_fn`` for ``break``;
    ``frame``: the caller's)."""
    where = where or user_location()
    frame = frame or sys._getframe(1)
    if isinstance(iterable, ComputedList):
        return _index_loop(range_(_len(iterable)), iterable.element_at, body_fn, state, names,
                           where, stop_fn, frame)
    if isinstance(iterable, SplitPieces):
        return _index_loop(range_(iterable.count()), iterable.piece, body_fn, state, names,
                           where, stop_fn, frame)
    if isinstance(iterable, RaggedList):
        return _index_loop(range_(iterable.count()), iterable.element_at, body_fn, state,
                           names, where, stop_fn, frame)
    if isinstance(iterable, (TracedDict, DictView)):
        view = iterable if isinstance(iterable, DictView) else iterable.keys()
        out = _index_loop(range_(_len(view)), view.item_at, body_fn, state, names, where,
                          stop_fn, frame)
        return _iterated_dict(view, state, out, stop_fn, where)
    if isinstance(iterable, enumerate_):
        inner, offset = iterable.iterable, iterable.start
        if isinstance(inner, (ComputedList, RaggedList)):
            return _index_loop(range_(_len(inner)), lambda i: (i + offset, inner.element_at(i)),
                               body_fn, state, names, where, stop_fn, frame)
        if _is_traced(inner):
            return _index_loop(range_(_len(inner)), lambda i: (i + offset, inner[i]), body_fn,
                               state, names, where, stop_fn, frame)
        zipped = inner.items() if isinstance(inner, zip_) else None
        if zipped is not None:
            return _index_loop(range_(zipped[0]), lambda i: (i + offset, zipped[1](i)),
                               body_fn, state, names, where, stop_fn, frame)
        iterable = iterable.python()
    elif isinstance(iterable, zip_):
        items = iterable.items()
        if items is not None:
            return _index_loop(range_(items[0]), items[1], body_fn, state, names, where,
                               stop_fn, frame)
        iterable = iterable.python()
    elif isinstance(iterable, range_):
        return _index_loop(iterable, lambda i: i, body_fn, state, names, where, stop_fn, frame)
    elif isinstance(iterable, count_) and not iterable.used and stop_fn is not None:
        # ``for it in itertools.count(1): ... if converged: break``: a loop the data end,
        # as long as int64 holds its counter.
        iterable.used = "graph"
        bound = 2 ** 62 if iterable.step > 0 else -2 ** 62
        return _index_loop(range_(iterable.start, bound, iterable.step), lambda i: i, body_fn,
                           state, names, where, stop_fn, frame)
    elif _is_traced(iterable):
        if iterable.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return _index_loop(range_(_len(iterable)), lambda i: iterable[i], body_fn, state, names,
                           where, stop_fn, frame)
    return _python_loop(iterable, body_fn, state, stop_fn, names, where, frame)


def _iterated_dict(view, state, out, stop_fn, where):
    """After a loop over a dict keyed by traced values (or a view of it) that ``out``
    holds again: Python raises RuntimeError where the loop changed the dict's size, and
    reads each value as it is when the loop reaches it (the loop read them from the dict
    as it was before)."""
    d = view.dict
    after = [v for v in out if isinstance(v, TracedDict) and
             v.spec.identity is d.spec.identity]
    if not after or all(a is d for a in after):
        return out
    if view.what != "keys" or stop_fn is not None:
        raise unsupported("a loop over the values or items of a dict keyed by traced values "
                          "whose body assigns its items, or that may break after adding a "
                          "key", where, fix="Loop over the keys (`for k in d:`) and read "
                          "d[k] in the body.")
    n, out = d.size(), list(out)
    for i, v in enumerate(out):
        if builtins.any(v is a for a in after):
            out[i] = _unchanged_size(v, n)
    return tuple(out)


def _unchanged_size(d, n):
    m = d.size()
    if not isinstance(m, Tracer) and not isinstance(n, Tracer):
        if m != n:
            raise RuntimeError("dictionary changed size during iteration")
        return d
    keys = emit("check", [d.keys_, to_tracer(m) == to_tracer(n)], {
        "error": "RuntimeError", "message": "dictionary changed size during iteration"})
    return TracedDict(d.spec, keys, d.rows)


def _python_loop(items, body_fn, state, stop_fn, names, where, frame):
    """The loop run by Python, item by item. Once a ``break`` (or ``return``) depends on
    the data, each later iteration runs under a traced ``if`` on that stop: the data
    decide when the graph runs whether it does."""
    state = tuple(state)
    stopped = None
    for item in items:
        if stopped is None:
            state = tuple(body_fn(item, *state))
        else:
            state = tuple(if_stmt(stopped, lambda *st: st,
                                  lambda *st, item=item: body_fn(item, *st),
                                  state, names, where, frame))
        if stop_fn is not None:
            stop = stop_fn(*state)
            if isinstance(stop, Tracer):
                stopped = stop
            elif stop:
                break
    return state


def _unrolled(static, item_of, body_fn, state, stop_fn, where, names, frame, of=None):
    """The loop over ``static`` run by Python; ``of``: the whole loop's items, where
    ``static`` is some of them (loops inside count its copies as the whole loop's)."""
    whole = len(of if of is not None else static)
    copies = _UNROLLED.set(_UNROLLED.get() * max(whole, 1))
    items = (item_of(i) for i in static)
    try:
        budget = current_budget()
        if budget is None:
            return _python_loop(items, body_fn, state, stop_fn, names, where, frame)
        with budget.unrolling(where, whole):
            return _python_loop(items, body_fn, state, stop_fn, names, where, frame)
    finally:
        _UNROLLED.reset(copies)


def _holds_loop(eqns):
    """Whether ``eqns`` (or a graph inside them) hold a ``while`` loop."""
    return any(e.op.name == "while" for e in all_eqns(types.SimpleNamespace(eqns=eqns)))


def _peeled(rng, static, item_of, body_fn, state, names, where, stop_fn, frame):
    """A short loop unrolled, but for a body that holds a graph loop (a search inside each
    row of a grid): after the first iteration, the others run as one graph loop, as each
    copy of such a body multiplies the graph TensorFlow builds and optimises."""
    if len(static) < 3 or stop_fn is not None:
        # A ``break`` guards each later iteration by the traced stop: one Python loop.
        return _unrolled(static, item_of, body_fn, state, stop_fn, where, names, frame)
    builder = current_builder()
    before = len(builder.eqns)
    state = _unrolled(static[:1], item_of, body_fn, state, stop_fn, where, names, frame,
                      of=static)
    if not _holds_loop(builder.eqns[before:]):
        return _unrolled(static[1:], item_of, body_fn, state, stop_fn, where, names, frame,
                         of=static)
    rest = range_(static[1], static.stop, static.step)
    return _index_loop(rest, item_of, body_fn, state, names, where, stop_fn, frame,
                       unroll=False)


# How far a loop on values the trace knows runs in Python (``_known_iterations``): past
# these, the rest of it is a loop as any other.
KNOWN_ITERATIONS = 1 << 14
KNOWN_EQUATIONS = 20_000


def _all_known(values):
    """Whether every traced value among ``values`` (in tuples, lists and dicts too) is one
    the trace knows; a list of nptf's own (its rows traced) is not."""
    for v in values:
        if type(v) is tuple or type(v) is list:
            if not _all_known(v):
                return False
        elif type(v) is dict:
            if not _all_known(tuple(v.values())):
                return False
        elif isinstance(v, Tracer):
            if v.known_value() is None:
                return False
        elif getattr(type(v), "nptf_list", False) or \
                getattr(type(v), "nptf_children", None) is not None:
            return False
    return True


_PLAIN = (bool, int, float, complex, str, bytes, range, slice, type(None), type(Ellipsis),
          np.generic, np.ndarray, np.dtype, np.ufunc, type, types.ModuleType,
          types.BuiltinFunctionType)


class _Look:
    """What ``_reads_known`` has looked at: objects by id, and how many more items of
    containers it may look at (past that, the body is taken to reach the data)."""
    __slots__ = ("ids", "left")

    def __init__(self, items=1 << 14):
        self.ids, self.left = set(), items


def _reads_known(obj, look, depth=0):
    """Whether ``obj`` (a loop's body, a function it calls, an object or container it
    reads) reaches only values the trace knows: Python's and NumPy's own, traced values
    it knows, and functions whose closures and globals hold nothing else. A body that
    reaches the data is no candidate for ``_known_iterations``."""
    if isinstance(obj, _PLAIN) or id(obj) in look.ids:
        return True
    look.ids.add(id(obj))
    if isinstance(obj, Tracer):
        return obj.known_value() is not None
    if depth > 6:
        return False
    if type(obj) in (tuple, list, set, frozenset, dict):
        look.left -= len(obj)
        if look.left < 0:
            return False
    if type(obj) in (tuple, list, set, frozenset):
        return builtins.all(_reads_known(v, look, depth + 1) for v in obj)
    if type(obj) is dict:
        return builtins.all(_reads_known(k, look, depth + 1) and _reads_known(v, look, depth + 1)
                            for k, v in obj.items())
    if isinstance(obj, types.FunctionType):
        for cell in obj.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # a cell not yet bound
                continue
            if not _reads_known(value, look, depth + 1):
                return False
        if (obj.__module__ or "").startswith("nptf."):
            return True         # nptf's own globals: its helpers, never the user's data
        names, codes = set(), [obj.__code__]
        while codes:
            code = codes.pop()
            names.update(code.co_names)
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
        space = obj.__globals__
        return builtins.all(_reads_known(space[n], look, depth + 1) for n in names
                            if n in space)
    if isinstance(obj, types.MethodType):
        return _reads_known(obj.__self__, look, depth + 1) and \
            _reads_known(obj.__func__, look, depth + 1)
    if isinstance(obj, functools.partial):
        return _reads_known((obj.func, obj.args, obj.keywords), look, depth + 1)
    attributes = getattr(obj, "__dict__", None)
    if type(attributes) is dict and not getattr(type(obj), "nptf_list", False) and \
            getattr(type(obj), "nptf_children", None) is None and \
            not (type(obj).__module__ or "").startswith("nptf."):
        return _reads_known(attributes, look, depth + 1)
    return False


def _known_scalar(value):
    if not isinstance(value, Tracer) or not value.is_scalar or value.kinds is not None:
        return value
    known = value.known_value()
    if known is None:
        return value
    return known.item() if value.type.weak else known[()]


def _known_iterations(static, item_of, body_fn, state, names, where, stop_fn, frame):
    """The first iterations of a loop over ``static``, run by Python while each computes
    only what the trace knows (``table[i, j] = np.cos(np.pi * i * j / n)``, a search over a
    board of a known size): the values and the decisions on them are then NumPy's own, at
    trace time, where a graph loop would trace every one of them, and every ``if`` on them,
    as run-time values. Gives the state and the items left (None when the loop is over):
    from the first iteration that computes from the data on, the rest is a loop as any
    other."""
    builder = current_builder()
    spent = 0

    def known_item(i):
        # An element of an array the trace knows (``for t in ts``) is NumPy's scalar of
        # it, as a read of it in the body gives (``namespace.getitem``).
        item = item_of(i)
        return tuple(_known_scalar(v) for v in item) if type(item) is tuple else \
            _known_scalar(item)

    for k in range(len(static)):
        before = len(builder.eqns)
        state = _unrolled(static[k:k + 1], known_item, body_fn, state, None, where, names,
                          frame, of=static)
        known = builtins.all(builder.known_value(v) is not None
                             for e in builder.eqns[before:] for v in e.outputs) and \
            _all_known(state)
        if known:
            builder.frozen.update(v for e in builder.eqns[before:] for v in e.outputs)
        spent += len(builder.eqns) - before
        rest = static[k + 1:]
        if stop_fn is not None:
            stop = stop_fn(*state)
            if isinstance(stop, Tracer) and stop.known_value() is None:
                # ``break`` as the data say: the rest runs only where it did not.
                if not len(rest):
                    return state, None
                return tuple(if_stmt(stop, lambda *st: st, lambda *st: _index_loop(
                    range_(rest.start, rest.stop, rest.step), item_of, body_fn, st, names,
                    where, stop_fn, frame, known=False), state, names, where, frame)), None
            if stop:
                return state, None
        if not len(rest):
            return state, None
        if not known or k + 1 >= KNOWN_ITERATIONS or spent >= KNOWN_EQUATIONS:
            return state, rest
    return state, None


def _index_loop(rng, item_of, body_fn, state, names, where, stop_fn, frame, unroll=True,
                peel_none=True, peel_first=True, known=True):
    static = rng.static()
    if python_loop(where):
        # No graph loop can run it: Python does, for the data's own trip count.
        if static is None:
            assumed = _assumed_range(rng, where)
            if assumed is not None:
                rng, static = assumed, assumed.static()
        if static is not None and not IN_GRAPH_LOOP.get():
            return _unrolled(static, item_of, body_fn, state, stop_fn, where, names, frame)
    if known and static is not None and len(static) and not IN_GRAPH_LOOP.get() and \
            _all_known(state) and _reads_known((body_fn, item_of, stop_fn), _Look()):
        state, static = _known_iterations(static, item_of, body_fn, state, names, where,
                                          stop_fn, frame)
        if static is None:
            return state
        rng = range_(static.start, static.stop, static.step)
    short = static is not None and len(static) <= UNROLL_LIMIT.get()
    if unroll and short and \
            _UNROLLED.get() * len(static) <= NESTED_UNROLL * UNROLL_LIMIT.get():
        return _peeled(rng, static, item_of, body_fn, state, names, where, stop_fn, frame)
    if peel_none and static is not None and len(static) > 1 and stop_fn is None and \
            any(v is None and not n.startswith("_nptf__") for v, n in zip(state, names)):
        # ``cur = None`` before the loop, ``if cur is None or x > cur: cur = x`` in it: the
        # first iteration runs in Python, after which such a variable mostly holds a
        # value, so that the graph loop carries a number (one a list can take) rather
        # than a value that may be None.
        state = _unrolled(static[:1], item_of, body_fn, state, stop_fn, where, names, frame,
                          of=static)
        rest = range_(static[1], static.stop, static.step)
        return _index_loop(rest, item_of, body_fn, state, names, where, stop_fn, frame,
                           unroll=False, peel_none=False)
    start, stop, step = rng.start, rng.stop, rng.step
    # The loop's own variables: a graph loop may carry more after them (the lists and
    # attributes the body writes, ``_with_cells``), which a ``break``'s test never reads.
    n_state = len(state)

    def cond(i, *st):
        go = (i < stop) if not isinstance(step, Tracer) and step > 0 else \
            (i > stop) if not isinstance(step, Tracer) else \
            emit("where", [to_tracer(step > 0), to_tracer(i < stop), to_tracer(i > stop)])
        if stop_fn is not None:
            go = np.logical_and(go, not_(stop_fn(*st[:n_state])))
        return go

    def graph_loop(body_fn, state, names):
        def body(i, *st):
            # The loop's index is a Python int (as when the loop unrolls): weak in
            # promotion, so ``x * i`` keeps a float32 ``x`` float32. The carried counter
            # stays int64.
            index = emit("convert", [i], {"dtype": np.dtype(np.int64), "weak": True},
                         scalar=True)
            if static is None:
                return (i + step,) + tuple(body_fn(item_of(index), *st))
            draws.trace(i)
            with loop_counter(i.atom, static):
                out = (i + step,) + tuple(body_fn(item_of(index), *st))
            draws.traced()
            return out

        # A known trip count and no ``break``: draws from seeded streams in the body are
        # NumPy's own numbers, drawn once the loop is traced.
        counted = counted_loop(static) if static is not None and stop_fn is None else \
            contextlib.nullcontext(_UNCOUNTED)
        with counted as draws:
            return _graph_while(cond, body, (counter,) + tuple(state),
                                ("<loop counter>",) + tuple(names), where, frame,
                                runs_once=static is not None and len(static) > 0, grow=True,
                                ragged=static is None)

    counter = start if isinstance(start, Tracer) else api.astype(to_tracer(np.intp(start)), np.intp)
    cells = _written_lists([body_fn], frame)
    if cells:
        # ``dp[i] = dp[i - 1] + 1``: the Python lists the body writes items of are carried
        # as the rows of arrays. Where that fails, they are Python lists again, and the
        # loop is compiled (or unrolled) as it would be without.
        n = len(state)
        carried = _cells_now(cells)
        try:
            out = graph_loop(lambda x, *st: _with_cells(cells, st[n:], body_fn, x, *st[:n]),
                             tuple(state) + carried, tuple(names) + _cell_names(cells))
        except Exception:   # noqa: BLE001  (the loop is traced again below, as written)
            _cells_put_back(cells, carried)
        else:
            return _cells_after_loop(cells, out[1:], n)
    try:
        # A list the body appends to: carried by the graph loop as the rows of an array (a
        # loop of a known trip count without `break` gives it back as the Python list).
        out = graph_loop(body_fn, state, names)
    except (UnsupportedError, _PythonOnlyBody, ControlFlowError) as e:
        if static is None and all(shadow_value(b.atom) is not None for b in
                                  (rng.start, rng.stop, rng.step) if isinstance(b, Tracer)):
            decline_loop(where)
        if getattr(e, "retyped", False) and peel_first and static is not None and \
                len(static) > 1 and stop_fn is None:
            # A variable the first iteration gives another dtype or rank (``h =
            # np.full(m, 0)``, then ``h = rho * h + z``), as NumPy's promotion does once:
            # the first iteration runs in Python, the rest as a graph loop of the new type.
            state = _unrolled(static[:1], item_of, body_fn, state, stop_fn, where, names,
                              frame, of=static)
            rest = range_(static[1], static.stop, static.step)
            return _index_loop(rest, item_of, body_fn, state, names, where, stop_fn, frame,
                               unroll=False, peel_none=False, peel_first=False)
        if isinstance(e, ControlFlowError) and not getattr(e, "python_object_in_branch", False):
            raise
        cells = _attribute_cells(e)
        if cells:
            n = len(state)
            carried = _cells_now(cells)
            try:
                with carrying_attributes([_carried_pair(c) for c in cells]):
                    out = graph_loop(lambda x, *st: _with_cells(cells, st[n:],
                                                                _uncarried(body_fn), x,
                                                                *st[:n]),
                                     tuple(state) + carried, tuple(names) + _cell_names(cells))
            except Exception:   # noqa: BLE001  (run as it would be without, below)
                _cells_put_back(cells, carried)
            else:
                _cells_put(cells, out[1 + n:])
                return out[1:1 + n]
        # What a list carried as an array refuses (`h.pop()` in the body): where the trip
        # count is known, Python runs the body on the list itself. Other refusals stand.
        if not isinstance(e, (TracerConversionError, DynamicShapeError, _PythonOnlyBody,
                              ControlFlowError)) and not getattr(e, "list_operation", False):
            raise
        if static is None:
            if isinstance(e, _PythonOnlyBody):
                raise _loop_unsupported(e, where) from None
            raise
        # Only Python can run the body (it indexes a Python list, or which array a name
        # holds changes between iterations): run it in Python.
        if short:       # short enough to unroll anyway: nothing to warn about
            return _unrolled(static, item_of, body_fn, state, stop_fn, where, names, frame)
        if peel_first and isinstance(e, _PythonOnlyBody) and stop_fn is None:
            # What the first iteration makes (``layer.output``, an optimizer's caches made
            # on first use, a list of one kind of item) the later ones only change: the
            # first runs in Python, the rest as one graph loop where it can.
            state = _unrolled(static[:1], item_of, body_fn, state, stop_fn, where, names,
                              frame, of=static)
            rest = range_(static[1], static.stop, static.step)
            return _index_loop(rest, item_of, body_fn, state, names, where, stop_fn, frame,
                               unroll=False, peel_none=False, peel_first=False)
        why = "its body needs a concrete index" if isinstance(e, TracerConversionError) else \
            "its body needs a size known when tracing" if isinstance(e, DynamicShapeError) else \
            "only Python can run its body"
        warn_user(f"nptf: the loop at {where} runs unrolled ({len(static)} iterations) because "
                      f"{why}: {str(e).splitlines()[0]}")
        return _unrolled(static, item_of, body_fn, state, stop_fn, where, names, frame)
    out = out[1:]
    if static is not None and stop_fn is None:
        out = tuple(restored(before, v, len(static)) if _restorable(before, v, len(static))
                    else v for before, v in zip(state, out))
    return out


def _assumed_range(rng, where):
    """``rng`` with the bounds the data of the call being traced give it, which the graph
    checks (``tracer.assumed_value``); None where the trace cannot tell them."""
    bounds = []
    for b in (rng.start, rng.stop, rng.step):
        if isinstance(b, Tracer):
            b = assumed_value(b, f"the trip count of the loop at {where}")
            if b is None:
                return None
        bounds.append(operator.index(b))
    return range_(*bounds)


class _ListCell:
    """A variable of the function (its closure cell) holding a Python list whose items a
    loop body or a branch writes, carried by the graph as a ``GrowingList`` and, where its
    items are numbers, the kind of each (``width`` 2: a Python number or a NumPy scalar,
    as the writes make it)."""

    __slots__ = ("name", "cell", "original", "width")

    def __init__(self, name, cell, original, width):
        self.name, self.cell, self.original, self.width = name, cell, original, width

    def carried(self):
        """The values the graph carries for the variable now."""
        value = self.cell.cell_contents
        if type(value) is list and table_item(value) is not None:
            value = grown_table(value, table_item(value))
            value.kind_rows = item_kinds(self.original, value.dtype)
        elif type(value) is list:
            item = common_item(value)
            value = grown(value, item)
            if self.width == 2:
                value.kind_rows = item_kinds(self.original, item[1])
        return (value, value.kind_rows) if self.width == 2 else (value,)

    def put(self, parts):
        value = parts[0]
        if self.width == 2:
            value.kind_rows = parts[1]
        self.cell.cell_contents = value


def _written_lists(fns, frame):
    """The variables whose items the converted functions ``fns`` (a loop body, the paths
    of an `if`) write, as ``_ListCell``s: those holding a Python list that can be one array
    (numbers of one dtype, or arrays or tuples of numbers of one kind, shape and dtype)
    that no other variable, container or global reaches, and those holding a
    ``GrowingList`` already (a list an outer loop carries)."""
    found = {}
    for fn in fns:
        free, closure = fn.__code__.co_freevars, fn.__closure__ or ()
        for name in getattr(fn, "nptf_item_writes", ()):
            if name not in free or name in found:
                continue
            cell = closure[free.index(name)]
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, GrowingTable) and reachable_elsewhere(value, name, frame):
                continue        # a row of it read before, in another variable
            if isinstance(value, GrowingList):
                width = 1 if object.__getattribute__(value, "kind_rows") is None else 2
                found[name] = _ListCell(name, cell, None, width)
                continue
            if type(value) is not list or not value:
                continue
            if table_item(value) is not None:
                # Its rows are its own: no other name reaches the table or a row.
                if not reachable_elsewhere(value, name, frame, parts=value):
                    found[name] = _ListCell(name, cell, value, 2)
                continue
            item = common_item(value)
            if item is None or reachable_elsewhere(value, name, frame):
                continue
            numbers = item[0] == () and (isinstance(item[2], type) or item[2] in ("scalar",
                                                                                  MIXED))
            found[name] = _ListCell(name, cell, value, 2 if numbers else 1)
    return list(found.values())


class _AttributeCell:
    """An attribute of an object that existed before a loop and that its body rebinds
    (``self.weights -= self.lr * dw`` in a training loop), or whose list it appends to
    (``self.losses.append(loss)``): carried by the graph loop as a variable, set on the
    object on every step and after the loop."""

    __slots__ = ("name", "obj", "attr")
    width = 1
    original = None

    def __init__(self, name, obj, attr):
        self.name, self.obj, self.attr = name, obj, attr

    def carried(self):
        return (getattr(self.obj, self.attr),)

    def put(self, parts):
        setattr(self.obj, self.attr, parts[0])


def _carried_pair(cell):
    """(object, attribute name) of what a ``_AttributeCell`` or ``_ListCell`` carries."""
    return (cell.obj, cell.attr) if isinstance(cell, _AttributeCell) else \
        (cell.cell, "cell_contents")


def _uncarried(fn):
    """``fn`` run where no attribute is carried: the statements traced in a loop body
    that carries attributes (an inner loop, an `if`) see their writes to them, theirs to
    merge or carry, as the loop's own snapshot does not."""
    def run(*args):
        with carrying_attributes(()):
            return fn(*args)
    return run


def _attribute_cells(error):
    """``_AttributeCell``s of what a loop body only Python could run (``error``) changed,
    where that is only attributes of the user's objects, each an array or a number
    before the loop (or a list), with ``_ListCell``s of the closure variables holding a
    list the data grow that it appended to; else None."""
    if not isinstance(error, _PythonOnlyBody):
        return None
    found = getattr(error, "changed_objects", None) or []
    # Closure variables holding a list the data grow that the body appends to (a nested
    # helper's ``history.append(v)``), carried as such lists (``_ListCell``).
    grown = getattr(error, "growing_cells", None) or []
    if not found and not grown:
        return None
    cells = [_ListCell(name, cell, None,
                       1 if object.__getattribute__(cell.cell_contents, "kind_rows") is None
                       else 2) for name, cell in grown]
    for path, obj, attrs in found:
        for attr, before in attrs.items():
            # A list the body appends to is carried as a list variable is (it grows with
            # the data).
            if not (_is_value(before) and not isinstance(before, ListTracer) or
                    type(before) is list or isinstance(before, GrowingList) or
                    before is None):
                return None
            cells.append(_AttributeCell(f"{path}.{attr}", obj, attr))
    return cells


def _cells_now(cells):
    return tuple(part for c in cells for part in c.carried())


def _cells_put(cells, values):
    it = iter(values)
    for c in cells:
        c.put([next(it) for _ in range(c.width)])


def _with_cells(cells, values, fn, *args):
    """``fn(*args)`` with ``values`` in the variables ``cells``, followed by what the
    variables hold after it."""
    _cells_put(cells, values)
    return tuple(fn(*args)) + _cells_now(cells)


def _cells_put_back(cells, before):
    it = iter(before)
    for c in cells:
        parts = [next(it) for _ in range(c.width)]
        if c.original is not None:
            c.cell.cell_contents = c.original
        else:
            c.put(parts)


def _cells_after_loop(cells, out, n):
    """After a graph loop that carried the lists ``cells``: each variable holds its list
    again, its items read from the rows (up to ``_RESTORED_MAX`` items), or the rows as
    one ``GrowingList``."""
    _cells_put(cells, out[n:])
    for c in cells:
        lst = c.original
        rows = c.cell.cell_contents
        if isinstance(rows, GrowingTable) and lst is not None:
            # A table keeps its rows: as many as before the loop.
            rows = rows.with_rows(len(lst))
            c.cell.cell_contents = rows
        if lst is None or len(lst) > _RESTORED_MAX or \
                isinstance(rows, GrowingTable) and rows.numbers() > _RESTORED_MAX or \
                numbers_of_several_types(rows.item):
            # Kept as one array (an item of several types would be of a type the data
            # choose).
            continue
        items = rows.items_of_length(len(lst))
        if isinstance(rows, GrowingTable):
            for row, read in zip(lst, items):
                row[:] = read
        else:
            lst[:] = items
        c.cell.cell_contents = lst
    return out[:n]


# Items up to which a list a loop appended to on every iteration is given back as a Python
# list (ops per item, as many as unrolling would have made); a longer one stays one array
# of its items (a GrowingList: len, items, slices, iteration, NumPy functions, returning).
_RESTORED_MAX = 64


def _restorable(before, after, trips):
    if type(before) is not list or not isinstance(after, GrowingList) or (
            object.__getattribute__(after, "item")[2] == MIXED and
            object.__getattribute__(after, "appended_kind") is None):
        return False
    per_iteration = object.__getattribute__(after, "per_iteration")
    return bool(per_iteration) and len(before) + trips * per_iteration <= _RESTORED_MAX


def higher_order_call(fn):
    """What a call of ``filter``, ``map``, ``itertools.accumulate`` or ``functools.reduce``
    runs in converted code, given how converted code calls a function
    (``call(f)(*args)``); None for any other callable."""
    return {id(builtins.filter): _filter, id(builtins.map): _map,
            id(itertools.accumulate): _accumulate, id(functools.reduce): _reduce}.get(id(fn))


def _filter(call, pred, iterable):
    """``filter(pred, iterable)``: the items ``[v for v in iterable if pred(v)]`` keeps, a
    list the data grow where ``pred`` gives traced truths; an iterator over them where
    Python's list holds them all."""
    if pred is None:
        return builtins.filter(pred, iterable)
    kept = list_comp(lambda v: v, iterable, user_location(), call(pred))
    return iter(kept) if type(kept) is list else kept


def _map(call, fn, *iterables):
    """``map(fn, *iterables)``: ``fn`` called on the items as ``zip`` pairs them."""
    fn = call(fn)
    if len(iterables) == 1:
        return iter(list_comp(fn, iterables[0], user_location()))
    return builtins.map(fn, *iterables)


def _reduce(call, func, iterable, *initial):
    """``functools.reduce(func, iterable[, initial])`` with ``func`` (``math.gcd``, a
    lambda) called as converted code calls it."""
    func = call(func)
    return functools.reduce(lambda a, b: func(a, b), iterable, *initial)


def _accumulate(call, iterable, func=None, *, initial=None):
    """``itertools.accumulate``: the running results of ``func`` (``max``, a lambda...)
    called on traced items, in Python's order."""
    func = operator.add if func is None else call(func)
    return itertools.accumulate(iterable, lambda a, b: func(a, b), initial=initial)


def _long_static(iterable):
    """Whether ``iterable`` is an array or a ``range`` of a length known when tracing that a
    ``for`` loop would not unroll."""
    if isinstance(iterable, range_):
        static = iterable.static()
        n = None if static is None else len(static)
    elif isinstance(iterable, Tracer) and iterable.ndim >= 1:
        n = iterable.type.shape[0]
    else:
        return False
    return n is not None and n > UNROLL_LIMIT.get()


class _Bindings(list):
    """The bindings of a comprehension's several generators (``nested_bindings``) that
    conditions Python decided filtered already: no condition was on traced values."""


_TRACED_FILTER = contextvars.ContextVar("nptf_traced_filter", default=None)


def static_filter(cond):
    """A condition of a comprehension's generator while its bindings are listed: Python's
    bool, or True for one on traced values (noted; the comprehension decides it)."""
    c = _concrete_condition(cond)
    if isinstance(c, Tracer):
        met = _TRACED_FILTER.get()
        if met is not None:
            met.append(True)
        return True
    return c


def nested_bindings(make):
    """The bindings ``make()`` lists (see ``convert._one_generator``): a ``_Bindings``
    where every condition was Python's, so the comprehension is Python's own."""
    met = []
    token = _TRACED_FILTER.set(met)
    try:
        bindings = make()
    finally:
        _TRACED_FILTER.reset(token)
    return list(bindings) if met else _Bindings(bindings)


def list_comp(fn, iterable, where="", cond=None):
    """``[fn(x) for x in iterable]`` in converted code (``if cond(x)`` when given). Over an
    array (or a ``range``) whose length is known only at run time, a graph loop writes
    ``fn``'s value for each item into a row of one array, as ``np.array`` of the list
    would hold them, and the list is a ``ComputedList`` of those rows; anything else is
    Python's comprehension."""
    # Only the first item is read (``next_``): the list is never NumPy's array of it.
    first_only = _FIRST_ONLY.get()
    _FIRST_ONLY.set(False)
    if isinstance(iterable, _Bindings):
        # Several generators, filtered by Python's own conditions: Python's comprehension.
        return [fn(x) for x in iterable]
    if cond is not None:
        return _filtered(fn, cond, iterable, where or user_location())
    run_time = _run_time_items(iterable)
    if run_time is None and _long_static(iterable):
        # As many items as a ``for`` loop runs as a graph loop: the same loop, appending,
        # rather than a copy of the element's code per item.
        def append(item, items):
            items.append(fn(item))
            return (items,)
        # A local of this frame, which a trace that fails puts back as it was.
        items = []
        (items,) = for_stmt(iterable, append, (items,), ("items",), where or user_location())
        return items
    if run_time is None:
        if isinstance(iterable, range_):
            iterable = iterable.static()
        elif isinstance(iterable, enumerate_):
            iterable = iterable.python()
        elif isinstance(iterable, zip_):
            iterable = iterable.python()
        return [fn(x) for x in iterable]
    where = where or user_location()
    n, item_of = run_time
    if python_loop(where):
        # The list cannot do what the function does with it as one array of its items:
        # Python's own list, for the data's length.
        count = assumed_value(n, f"the length of the list comprehension at {where}") \
            if isinstance(n, Tracer) else n
        if count is not None:
            return [fn(item_of(i)) for i in range(int(count))]

    def element(i):
        item = item_of(i)
        value = fn(item)
        if value is item and _writable_array(value) and value.ndim:
            # Iterating a 2-d array gives views of its rows in NumPy.
            raise unsupported("a list comprehension over an array of run-time length whose "
                              "items are its rows themselves (views in NumPy)", where,
                              fix="Make each item a new array (r.copy(), r * 1), or use the "
                                  "array itself.")
        if type(value) is tuple and common_item([value]) is not None:
            # Python's list holds the tuples themselves, each number of its own kind: the
            # list the loop appends them to (``growing_lists``) keeps them so.
            raise _TupleItems()
        if isinstance(value, (tuple, list)):
            raise unsupported(f"a list comprehension of {type(value).__name__} items other "
                              f"than tuples of numbers over an array of run-time length",
                              where, fix="Make each item a tuple of numbers or an array "
                                         "(np.array([...])).")
        if isinstance(value, (bool, int, float, complex, np.generic, np.ndarray)):
            value = to_tracer(value)
        if not isinstance(value, Tracer) or isinstance(value, ListTracer):
            raise unsupported(f"a list comprehension of {type(value).__name__} items over an "
                              f"array of run-time length", where,
                              fix="Build the items as arrays or numbers, or give the array a "
                                  "length known when tracing.")
        if value.kind_flag is not None:
            raise unsupported("a list comprehension over an array of run-time length whose "
                              "items are Python numbers or NumPy scalars as the data choose",
                              where, fix="Make every item an array (np.asarray(...)).")
        if _writable_array(value) and (value._view is None or
                                       not value._view.buffer.ambiguous) and \
                (value._view is not None or value.atom not in
                 {v for e in current_builder().eqns for v in e.outputs}):
            # NumPy's list holds that array itself (a view, or an array made before): a
            # later write into it would show in the list; the rows here are copies. Writes
            # into memory nptf cannot place are refused anyway.
            raise unsupported("a list comprehension over an array of run-time length whose "
                              "items are views of arrays or arrays made before it", where,
                              fix="Make each item a new array (x[i].copy(), x[i] * 1).")
        return value

    try:
        probe = _run_traced(lambda i: (element(_weak_index(i)),),
                            [ArrayType((), np.dtype(np.int64))])
    except _TupleItems:
        return _filtered(fn, lambda item: True, iterable, where)
    except UnsupportedError:
        decline_loop(where)
        raise
    item = probe.outs[0]
    if None in item.shape:
        raise unsupported("a list comprehension over an array of run-time length whose items "
                          "have sizes known only at run time (a ragged list)", where,
                          fix="Reduce each item to a fixed shape, or let the function run "
                              "with NumPy (fallback='numpy', the default).")
    weak = item.type.weak
    dtype = np.dtype(python_type_of(item.dtype)) if weak else item.dtype
    if dtype == np.dtype(int):
        dtype = np.dtype(np.int64)
    if not (item.shape == () and dtype == np.float64) and not first_only:
        # np.array([]) is a float64 array of shape (0,), whatever the items would be.
        n = emit("check", [n, n > 0], {
            "error": "OutsideTheGraph",
            "message": f"the list comprehension at {where} is empty, and NumPy makes an "
                       f"array of shape (0,) and dtype float64 of an empty list, where the "
                       f"graph has items of shape {item.shape} and dtype {dtype}"}, scalar=True)
    rows = api.empty((n,) + tuple(item.shape), dtype)

    def body(i, rows):
        rows[i] = element(i)
        return (rows,)

    (rows,) = _index_loop(range_(n), lambda i: i, body, (rows,), ("<list comprehension>",),
                          where, None, sys._getframe(1))
    made = ComputedList(Tracer(rows.atom).atom, element=python_type_of(item.dtype) if weak
                        else None)
    made.made_at = where
    return made


class _TupleItems(Exception):
    """A list comprehension over a run-time length makes tuples: the loop it stands for
    appends them."""


def _filtered(fn, cond, iterable, where):
    """``[fn(x) for x in iterable if cond(x)]`` as the loop it stands for: an `if` on the
    condition appends ``fn(x)``, so a condition on traced values makes a list the data
    grow (``GrowingList``), and ``fn`` runs only where it holds."""
    names = ("<list comprehension>",)

    def append(out, value):
        out.append(value)
        return (out,)

    def body(item, out):
        return if_stmt(cond(item), lambda out: append(out, fn(item)), lambda out: (out,),
                       (out,), names, where)

    (out,) = for_stmt(iterable, body, ([],), names, where)
    return out


def _weak_index(i):
    """A loop index as a Python int is: weak in NumPy 2's promotion."""
    return emit("convert", [i], {"dtype": np.dtype(np.int64), "weak": True}, scalar=True)


def _run_time_items(iterable):
    """(length, item of index) of an iterable whose length is known only at run time."""
    if isinstance(iterable, range_) and iterable.static() is None:
        start, stop, step = iterable.start, iterable.stop, iterable.step
        if isinstance(step, Tracer):
            return None
        n = (stop - start + (step - 1 if step > 0 else step + 1)) // step
        n = np.maximum(api.astype(to_tracer(n), np.int64), 0)
        return n, lambda i: _weak_index(start + i * step)
    if isinstance(iterable, enumerate_):
        inner = iterable.iterable
        if isinstance(inner, (ComputedList, RaggedList)):
            return _len(inner), lambda i: (i + iterable.start, inner.element_at(i))
        if _is_traced(inner) and inner.ndim and inner.shape[0] is None:
            return _len(inner), lambda i: (i + iterable.start, inner[i])
        zipped = inner.items() if isinstance(inner, zip_) else None
        if zipped is not None and isinstance(zipped[0], Tracer):
            return zipped[0], lambda i: (i + iterable.start, zipped[1](i))
        return None
    if isinstance(iterable, ComputedList):
        return _len(iterable), iterable.element_at
    if isinstance(iterable, SplitPieces):
        return iterable.count(), iterable.piece
    if isinstance(iterable, RaggedList):
        return iterable.count(), iterable.element_at
    if isinstance(iterable, (TracedDict, DictView)):
        view = iterable if isinstance(iterable, DictView) else iterable.keys()
        n = _len(view)
        return (n, view.item_at) if isinstance(n, Tracer) else None
    if isinstance(iterable, zip_):
        items = iterable.items()
        return items if items is not None and isinstance(items[0], Tracer) else None
    if _is_traced(iterable) and iterable.ndim and iterable.shape[0] is None:
        return _len(iterable), lambda i: iterable[i]
    return None


class _AppendedList(Exception):
    """A loop body appends to a list ``_LoopContainers`` carries item by item."""

    def __init__(self, position):
        super().__init__("a list the loop body appends to")
        self.position = position


class _RetypedDict(Exception):
    """A loop body gives its first key and value to a dict keyed by traced values that
    was empty before the loop: the loop carries it from an empty dict of that kind."""

    def __init__(self, position, spec):
        super().__init__("a dict the loop body types")
        self.position, self.spec = position, spec


class _ListToRagged(Exception):
    """A loop body appends arrays of lengths the data choose to the Python list ``lst``:
    the loop carries it as a ``RaggedList`` of ``spec`` from its items before the loop."""

    def __init__(self, lst, spec):
        super().__init__("a list the loop body appends arrays of run-time lengths to")
        self.lst, self.spec = lst, spec


class _ListToBuckets(Exception):
    """A loop body appends to a Python list of lists at a traced position: the loop
    carries it as a ``BucketTable`` of ``spec`` from its rows before the loop."""

    def __init__(self, position, spec):
        super().__init__("a list of lists the loop body appends to at traced positions")
        self.position, self.spec = position, spec


def _hint_keyed_dicts(changed):
    """Where a branch or a graph loop's body changes a Python dict or set, a trace that
    fails runs again with the function's dicts (and sets used as their keys could be)
    keyed by traced values (``trace_function``), which branches and loops carry as
    values."""
    hints = HASHED.get()
    if hints is not None and any(kind in ("dict", "defaultdict", "Counter", "set")
                                 for _, kind in changed):
        hints.append(True)


class _PythonOnlyBody(Exception):
    """A loop body only Python can run: unrolled when the trip count is known."""


def _loop_unsupported(e, where):
    error = unsupported(f"a compiled loop whose trip count is known only at run time, where "
                        f"{e},", where=where,
                        fix="Give the loop a trip count known when tracing (a Python int or a "
                            "static argument) so nptf can unroll it, or restructure the body.")
    # A loop around it of a known trip count runs unrolled, where what this body changes
    # may be a Python object of its own again (a list the outer loop carried as an array).
    error.list_operation = True
    return error


def builtin_call(fn):
    """What a call of Python's own ``fn`` (``min``, ``len``, ``sorted``, ``list.sort``...)
    runs in converted code: the version here that takes traced values; None for any
    other callable."""
    text = text_builtin(fn)
    if text is not None:
        return text
    if fn is builtins.min or fn is builtins.max:
        return functools.partial(_extremum, fn)
    if fn is builtins.len:
        return _len
    if fn is builtins.range:
        # ``range`` by another name (``xrange = range``), which the converter's ``for``
        # does not see: a range of traced bounds is a loop's as well.
        return _range
    if fn is builtins.type:
        return _type
    if fn is builtins.sorted:
        return _sorted
    if isinstance(fn, types.BuiltinMethodType) and type(fn.__self__) is list and \
            fn.__name__ == "sort":
        return functools.partial(_list_sort, fn.__self__)
    if isinstance(fn, types.BuiltinMethodType) and type(fn.__self__) is list and \
            fn.__name__ in ("remove", "insert"):
        return functools.partial(_LIST_AT_TRACED[fn.__name__], fn)
    if fn is builtins.list:
        return _list
    if fn is builtins.set:
        return traced_set
    if fn is builtins.round:
        return _round
    if fn is builtins.any or fn is builtins.all:
        return functools.partial(_any_all, fn)
    if fn is builtins.sum:
        return _sum
    if fn is builtins.float or fn is builtins.int or fn is builtins.bool:
        return functools.partial(_python_number, fn)
    if fn is builtins.complex:
        return _python_complex
    if isinstance(fn, type) and issubclass(fn, np.generic):
        return functools.partial(_numpy_scalar, fn)
    if fn is itertools.count:
        return _count
    if fn is bisect.bisect_left or fn is bisect.bisect_right:
        return functools.partial(_bisect, fn)
    if fn is bisect.insort_left or fn is bisect.insort_right:
        return functools.partial(_insort, fn)
    if getattr(fn, "__module__", None) in ("heapq", "_heapq") and \
            getattr(heapq, getattr(fn, "__name__", ""), None) is fn:
        return functools.partial(_heapq, fn)
    return math_function(fn)


def _heapq(fn, heap, *args, **kwargs):
    """A ``heapq`` function: Python's, but on a list of a length the data choose, whose
    heap order nptf does not keep (nptf's refusal rather than heapq's TypeError)."""
    if isinstance(heap, ListTracer):
        decline_made(heap)
        raise unsupported(f"heapq.{fn.__name__}() of a list whose length the data choose "
                          f"(built by a comprehension with a filter on traced values, or "
                          f"appended to in compiled control flow)",
                          fix="Sort the list (sorted(...)) and take its first items, or build "
                              "it with a length known when tracing.")
    return fn(heap, *args, **kwargs)


def _bisect_rows(a):
    """The items of ``a`` as one traced 1-d array where ``a`` or they are traced (a list
    the data grow, a list argument, a Python list of numbers some of which are traced);
    else None."""
    if isinstance(a, ListTracer):
        rows = Tracer(a.atom)
        return rows if rows.ndim == 1 else None
    if type(a) in (list, tuple) and contains_tracer(list(a)) and all(
            isinstance(v, (int, float, np.integer, np.floating)) or
            (isinstance(v, Tracer) and v.ndim == 0) for v in a):
        return api.astype(api.asarray(list(a)), np.result_type(*[
            v.dtype if isinstance(v, Tracer) else type(v) for v in a]))
    return None


def _bisect(fn, a, x, lo=0, hi=None, *, key=None):
    """``bisect.bisect_left``/``bisect_right`` (``fn``) where the list or ``x`` is
    traced: Python's binary search, step for step, as a graph loop (a list that is not
    sorted gives Python's answer too). A Python int, traced."""
    rows = _bisect_rows(a) if key is None else None
    if rows is None and isinstance(x, Tracer) and key is None and type(a) in (list, tuple) \
            and all(isinstance(v, (int, float)) for v in a):
        rows = api.asarray(list(a)) if a else api.zeros((0,), np.float64)
    if rows is None:
        return fn(a, x, lo, hi) if key is None else fn(a, x, lo, hi, key=key)
    if not isinstance(lo, Tracer) and lo < 0:
        raise ValueError("lo must be non-negative")
    right = fn is bisect.bisect_right
    start = api.astype(to_tracer(lo), np.int64)
    stop = api.astype(to_tracer(_len(a) if hi is None else hi), np.int64)

    def cond(lo, hi):
        return lo < hi

    def body(lo, hi):
        mid = (lo + hi) // 2
        v = rows[mid]
        if right:       # ``if x < a[mid]: hi = mid else: lo = mid + 1``
            left = x < v
            return np.where(left, lo, mid + 1), np.where(left, mid, hi)
        below = v < x   # ``if a[mid] < x: lo = mid + 1 else: hi = mid``
        return np.where(below, mid + 1, lo), np.where(below, hi, mid)

    lo, _ = while_stmt(cond, body, (start, stop), ("lo", "hi"))
    return emit("convert", [lo], {"dtype": np.dtype(np.int64), "weak": True}, scalar=True)


def _insort(fn, a, x, lo=0, hi=None, *, key=None):
    """``bisect.insort_left``/``insort_right`` (``fn``) where the list or ``x`` is traced:
    ``a.insert(bisect(...), x)``, into a list the data grow."""
    if key is not None or not (isinstance(a, GrowingList) or isinstance(x, Tracer) or
                               contains_tracer(list(a) if type(a) is list else [])):
        return fn(a, x, lo, hi) if key is None else fn(a, x, lo, hi, key=key)
    search = bisect.bisect_right if fn is bisect.insort_right else bisect.bisect_left
    at = _bisect(search, a, x, lo, hi)
    if isinstance(a, GrowingList):
        a.insert(at, x)
    else:
        _list_insert(a.insert, at, x)


def _numbers_of(items, also=()):
    """(the rows array, the kind) of a Python list of numbers of one kind and dtype
    (with ``also``, values to be items of it too), or None."""
    item = common_item(list(items) + list(also))
    if item is None or item[0] != () or not (isinstance(item[2], type) or
                                              item[2] == "scalar"):
        return None
    return api.astype(api.asarray(list(items) + list(also)), item[1]), item[2]


def _as_items(rows, kind):
    listed_ = ComputedList(rows.atom, element=kind if isinstance(kind, type) else None)
    return [listed_.element_at(i) for i in range(rows.shape[0])]


def _list_remove(method, value):
    """``lst.remove(value)`` of a Python list of numbers of one kind where ``value`` or the
    items are traced: the first equal (or identical) item taken out, at a position the
    data give (Python's ValueError where there is none); the list changed in place."""
    lst = method.__self__
    found = _numbers_of(lst) if lst and contains_tracer(list(lst) + [value]) else None
    if found is None:
        return method(value)
    rows, kind = found
    # Python's test is ``item is value or item == value``: a NaN the list holds itself
    # is found.
    equal = rows == value
    same = [item is value for item in lst]
    if any(same):
        equal = np.logical_or(equal, np.array(same))
    k = emit("check", [np.argmax(equal), np.any(equal)], {
        "error": "ValueError", "message": "list.remove(x): x not in list"})
    j = np.arange(len(lst) - 1)
    lst[:] = _as_items(rows[j + (j >= k)], kind)


def _list_insert(method, index, value):
    """``lst.insert(index, value)`` of a Python list of numbers of one kind at a position
    known only when the graph runs (or of a traced value): the list, one item longer,
    changed in place."""
    lst = method.__self__
    if not isinstance(index, Tracer):
        return method(index, value)
    found = _numbers_of(lst, [value]) if isinstance(index, Tracer) and index.ndim == 0 and \
        index.dtype.kind in "iu" else None
    if found is None:
        raise unsupported("list.insert() into a Python list at a position known only when "
                          "the graph runs, where its items and the value are not numbers "
                          "of one kind and dtype", fix="Build the list in a loop (so nptf "
                          "carries it as an array), or sort an array instead.")
    rows, kind = found          # the list's items, then the value
    n = len(lst)
    k = api.astype(index, np.int64)
    k = np.where(k < 0, np.maximum(k + n, 0), np.minimum(k, n))
    j = np.arange(n + 1)
    lst[:] = _as_items(rows[np.where(j < k, j, np.where(j == k, n, j - 1))], kind)


_LIST_AT_TRACED = {"remove": _list_remove, "insert": _list_insert}


def _type(*args, **kwargs):
    """``type(x)`` in converted code: of a traced value, the class NumPy's value has."""
    if len(args) == 1 and not kwargs and isinstance(args[0], Tracer):
        return numpy_class_of(args[0])
    if len(args) == 1 and not kwargs and isinstance(args[0], (TracedDict, ReadOnlyDict)):
        return python_class_of(args[0])
    if len(args) == 1 and not kwargs and isinstance(args[0], (BucketTable, RowList)):
        return list
    return builtins.type(*args, **kwargs)



def _round(number, ndigits=None):
    """Python's ``round`` of a traced number: of a NumPy scalar, NumPy's (a Python int
    without ``ndigits``, the scalar's type with them; a NumPy bool has no round); of a
    Python number, Python's (an int without ``ndigits`` or of an int, a float of a float,
    rounded exactly as Python rounds: ``python_numbers.rounded``)."""
    if not _is_traced(number):
        return builtins.round(number) if ndigits is None else builtins.round(number, ndigits)
    if not number.is_scalar and not number.type.weak:
        raise TypeError("type numpy.ndarray doesn't define __round__ method")     # NumPy's
    if number.dtype.kind == "c" or (number.dtype.kind == "b" and not number.type.weak):
        # Python's complex, NumPy's complex and bool scalars
        name = "complex" if number.type.weak else f"numpy.{number.dtype.name}"
        raise TypeError(f"type {name} doesn't define __round__ method")
    if isinstance(ndigits, Tracer):
        raise unsupported("round() with a traced number of digits")
    if ndigits is not None:
        ndigits = operator.index(ndigits)
    if number.type.weak and number.dtype.kind in "biu":
        number = _python_number(int, number)
        return number if ndigits is None else python_numbers.rounded(number, ndigits)
    if ndigits is None:
        return _python_number(int, np.round(number))
    if number.type.weak:
        return python_numbers.rounded(number, ndigits)
    python = {k for k in (number.kinds or ()) if k >= KIND_PYTHON}
    if number.kind_flag is not None and python:
        # A Python float or a NumPy scalar as the data choose: Python's rounding or
        # NumPy's, as the value is when the graph runs.
        if python != {python_kind(float)} or number.dtype != np.float64:
            raise unsupported("round() to decimals of a value that is a Python int or a NumPy "
                              "scalar as the data choose",
                              fix="Give the variable one kind on every path (float(...) or "
                                  "np.float64(...)).")
        value = Tracer(number.atom, is_scalar=True)
        return if_exp(Tracer(number.kind_flag) >= KIND_PYTHON,
                      lambda: python_numbers.rounded(emit("convert", [value], {
                          "dtype": value.dtype, "weak": True}, scalar=True), ndigits),
                      lambda: np.round(value, ndigits), user_location())
    return np.round(number, ndigits)


def _sorted(iterable, /, *, key=None, reverse=False):
    """``sorted(x)`` of a 1-d traced array (or a list of numbers the data grow or built over
    a run-time length, ``x[x > 0].tolist()``): its items
    in order, as Python's sort of NumPy's values gives them: a list of the array's
    scalars (a list the data grow of the list's). NaN has no place in Python's order (its
    comparisons are false): where the values hold one, the call runs with NumPy."""
    if isinstance(iterable, TracedSet) and key is None and not isinstance(reverse, Tracer):
        return iterable.sorted_values(reverse)
    if isinstance(iterable, (TracedDict, DictView)) and key is None and \
            type(reverse) in (bool, int):
        made = sorted_list(iterable, reverse)
        if made is not None:
            return made
        iterable = listed(iterable, "sorted()")
    if key is None and type(iterable) in (list, tuple) and not isinstance(reverse, Tracer) \
            and contains_tracer(list(iterable)):
        ordered = _sorted_numbers(list(iterable), reverse)
        if ordered is not None:
            return ordered
    if not isinstance(reverse, Tracer) and (key is not None or isinstance(
            iterable, (zip_, enumerate_, builtins.zip, builtins.enumerate,
                       types.GeneratorType))):
        # Items Python's sort would take one by one: pairs of ``zip``/``enumerate``, the
        # elements (or rows) of an array of a length known while tracing.
        if isinstance(iterable, (zip_, enumerate_)):
            iterable = iterable.python()
        elif isinstance(iterable, (builtins.zip, builtins.enumerate, builtins.map,
                                   type(iter([])), types.GeneratorType)):
            iterable = builtins.list(iterable)
        elif isinstance(iterable, Tracer) and not isinstance(iterable, ListTracer) and \
                iterable.ndim >= 1 and iterable.shape[0] is not None:
            iterable = [iterable[i] for i in range(iterable.shape[0])]
    if (key is not None or type(iterable) in (list, tuple) and iterable and
            all(type(v) is tuple for v in iterable)) and \
            type(iterable) in (list, tuple, range) and not isinstance(reverse, Tracer):
        items = list(iterable)
        ordered = _ordered_by_key(items, key, reverse, "sorted()")
        return ordered if ordered is not None else builtins.sorted(items, key=key,
                                                                    reverse=reverse)
    if key is not None or isinstance(reverse, Tracer) or not isinstance(iterable, Tracer) or \
            (isinstance(iterable, ListTracer) and not isinstance(iterable, ComputedList)) or \
            iterable.ndim != 1:
        return builtins.sorted(iterable, key=key, reverse=reverse)
    values = _python_order(Tracer(iterable.atom), reverse)
    if isinstance(iterable, GrowingList):
        return iterable.rebuilt(values.atom)
    if isinstance(iterable, ComputedList):
        return ComputedList(values.atom, element=iterable.element)
    return [values[i] for i in range(_len(values))]


def _python_order(rows, reverse):
    """``rows`` in Python's order: a stable sort, equal numbers (0.0 and -0.0) in their
    order before, also where ``reverse`` (the reversed sort of the reversed rows). NaN has
    no place in Python's order (it depends on where the sort starts): where one is among
    them, the call runs with NumPy."""
    values = np.sort(rows[::-1], kind="stable")[::-1] if reverse else \
        np.sort(rows, kind="stable")
    if rows.dtype.kind in "fc":
        values = emit("check", [values, np.logical_not(np.any(np.isnan(rows)))], {
            "error": "OutsideTheGraph", "when_read": True,
            "message": f"sorted() of values with NaN at {user_location()}, whose place in "
                       f"Python's order depends on where it starts"})
    return values


def _sorted_numbers(items, reverse):
    """``sorted(items)`` of a Python list of numbers of one kind and dtype, some traced
    (``sorted(x.tolist())``): a Python list of them in order, of their kind; None for
    other items."""
    item = common_item(items)
    if item is None or item[0] != () or not (isinstance(item[2], type) or
                                              item[2] == "scalar"):
        return None
    return _as_items(_python_order(api.astype(api.asarray(items), item[1]), reverse), item[2])


def _list_sort(items, /, *, key=None, reverse=False):
    """``items.sort(key=..., reverse=...)`` of a Python list: in place, as
    ``_ordered_by_key`` orders it where the keys are traced; else Python's own."""
    ordered = None if isinstance(reverse, Tracer) else \
        _ordered_by_key(items, key, reverse, "list.sort()")
    if ordered is None:
        return items.sort(key=key, reverse=reverse)
    items[:] = ordered


def _ordered_by_key(items, key, reverse, what):
    """The Python list ``items`` in Python's sorted order (stable: equal keys keep their
    order, with ``reverse`` too) where the keys (``key`` of each item, called once per item
    as Python's sort calls it, or the items) are traced numbers of one dtype, or tuples of
    one length of such numbers (compared as Python compares tuples: by their first
    unequal place): the order is a stable lexicographic argsort of the keys, and each
    place reads the item it gets. NaN has no place in Python's order (its comparisons are
    false): where a key holds one, the call runs with NumPy. None where no key is traced
    (Python's own sort)."""
    return _ordered_by_keys(items, [v if key is None else key(v) for v in items], reverse,
                            what)


def _ordered_by_keys(items, keys, reverse, what):
    """``_ordered_by_key`` with the keys of the items computed."""
    if not contains_tracer(keys):
        return None
    columns = _key_columns(keys, what)
    item = common_item(items)
    places = None
    if item is None and all(_text_option(v) for v in items):
        # ``sorted(names, key=...)``: each place is one of the names, at a position the
        # keys' order gives.
        places = [items]
    elif item is None or item[2] == "array" or item[2] == MIXED:
        places = _tuple_places(items)
        if places is None:
            # An array item is itself in Python's sorted list: a later write into it would
            # show there, where the rows here are copies.
            raise unsupported(f"{what} of items that are not numbers, or tuples of one "
                              f"length whose places hold numbers or arrays of one kind, "
                              f"ordered by traced keys",
                              fix="Sort the indices (np.argsort of the keys) and index an "
                                  "array of the items.")
    where = user_location()
    n = len(items)
    # Python's reverse sort keeps equal keys in their order: the list reversed, sorted
    # stably and reversed again.
    order = api.asarray(np.arange(n)[::-1] if reverse else np.arange(n))
    for ranked in reversed(columns):
        if ranked.dtype.kind == "f":
            ranked = emit("check", [ranked, np.logical_not(np.any(np.isnan(ranked)))], {
                "error": "OutsideTheGraph", "when_read": True,
                "message": f"{what} by keys with NaN at {where}, whose place in Python's "
                           f"order depends on where it starts"})
        # Stable sorts from the last place of the keys to the first: a lexicographic order.
        order = order[np.argsort(ranked[order], kind="stable")]
    order = order[::-1] if reverse else order
    if places is not None:
        ordered = _tuples_in_order(places, order, what, where)
        return [v[0] for v in ordered] if places[0] is items else ordered
    return items_in_order(items, order)


def _tuple_places(items):
    """The places of ``items``, tuples of one length (``(eigenvalue, eigenvector)`` pairs),
    as lists of their values, where each place holds numbers or arrays of one kind, shape
    and dtype; else None."""
    if not items or any(type(v) is not tuple or len(v) != len(items[0]) or not v
                        for v in items):
        return None
    places = [[v[j] for v in items] for j in range(len(items[0]))]
    for place in places:
        item = common_item(place)
        if (item is None or item[2] == MIXED) and not all(_text_option(v) for v in place):
            return None
    return places


def _texts_in_order(place, order):
    """The strings (or None, or choices of them) of ``place`` in ``order``: each one of
    them all, at the position the order gives."""
    options = _text_options(place)
    picked = getitem(api.asarray([_text_position(options, v) for v in place]), (order,))
    return [Text(operator.getitem, (options, getitem(picked, (p,))))
            for p in range(len(place))]


def _tuples_in_order(places, order, what, where):
    """The tuples of ``places`` in ``order``, each place read at once. Python's sorted list
    holds the arrays themselves, where these are copies chosen by the data: writes into
    either, which would show in the other, are refused."""
    ordered = [_texts_in_order(place, order) if all(_text_option(v) for v in place) and
               common_item(place) is None else items_in_order(place, order)
               for place in places]
    reason = f"an array in a list ordered by traced keys ({what} at {where}), which nptf " \
             f"keeps as a copy"
    for value in itertools.chain(*places, *ordered):
        if isinstance(value, Tracer) and value.ndim and not value.is_scalar:
            mark_ambiguous(value, reason)
    return [tuple(values) for values in zip(*ordered)]


def _key_columns(keys, what):
    """The sort keys ``keys`` as arrays, one per place of a tuple key (one for number keys):
    traced numbers of one dtype each, or Python values none of them traced, as their ranks
    among themselves (names sorted as Python sorts them)."""
    refused = unsupported(
        f"{what} of items whose keys are not real numbers of one dtype and kind, or tuples "
        f"of one length of such numbers", fix="Give every item a key of one dtype "
        "(float(...)), or sort an array (np.argsort, np.lexsort).")
    if all(type(k) is tuple for k in keys):
        if len({len(k) for k in keys}) != 1 or not keys[0]:
            raise refused
        places = [[k[j] for k in keys] for j in range(len(keys[0]))]
    elif any(type(k) is tuple for k in keys):
        raise refused
    else:
        places = [keys]
    columns = []
    for place in places:
        if not contains_tracer(place):
            try:
                ranks = {v: r for r, v in enumerate(builtins.sorted(set(place)))}
                columns.append(api.asarray([ranks[v] for v in place]))
            except TypeError:           # values Python cannot order, or hash
                raise refused from None
            continue
        place = [to_tracer(k) if not isinstance(k, (tuple, list)) else k for k in place]
        if any(not isinstance(k, Tracer) for k in place) or \
                len({(k.dtype, k.type.weak) for k in place}) > 1 or \
                any(k.ndim or k.dtype.kind not in "biuf" or k.kind_flag is not None
                    for k in place):
            raise refused
        columns.append(api.stack(place))
    return columns


def _any_all(fn, iterable, /):
    """Python's ``any``/``all`` of traced values (a list the data grow, or a Python list
    holding traced numbers): a Python bool when the graph runs. Every item is evaluated
    (a generator's too), where Python stops at the first that decides."""
    is_any = fn is builtins.any
    if isinstance(iterable, ComputedList):
        rows = Tracer(iterable.atom)
        if rows.ndim != 1:
            raise unsupported(f"{fn.__name__}() of a list of arrays the data grow",
                              fix="Reduce each item first (x.any(), x.all()).")
        value = np.any(rows) if is_any else np.all(rows)
    else:
        items = list(iterable)
        traced = [_truth(v) for v in items if _is_traced(v)]
        if not traced:
            return fn(items)
        if any(bool(v) == is_any for v in items if not _is_traced(v)):
            return is_any          # a concrete item decides
        value = functools.reduce(np.logical_or if is_any else np.logical_and, traced)
    return emit("convert", [value], {"dtype": np.dtype(bool), "weak": True}, scalar=True)


_FIRST_ONLY = contextvars.ContextVar("nptf_first_only", default=False)


def next_(items, generator, default):
    """``next(generator expression, default)``: Python's own where Python can run the
    generator; where its items are traced values only the data pick (a filter on them, an
    array of run-time length), ``items()`` (the same items as a list comprehension) and
    its first item, or ``default`` where the data leave none."""
    try:
        return next(generator(), default)
    except (TracerConversionError, DynamicShapeError, UnsupportedError):
        pass
    token = _FIRST_ONLY.set(True)
    try:
        listed_ = items()
    finally:
        _FIRST_ONLY.reset(token)
    if not isinstance(listed_, ComputedList):
        return listed_[0] if listed_ else default
    # The rows as they are (``.atom`` is the list as NumPy's array, which an empty list
    # of numbers is not).
    rows = Tracer(object.__getattribute__(listed_, "_atom"))
    n = rows.shape[0] if rows.shape[0] is not None else emit("dim", [rows], {"axis": 0})
    if not isinstance(n, Tracer):
        return listed_[0] if n else default
    # The first item read from the rows and one more, so that the read holds where the
    # data leave no item (the default is the answer there).
    padded = api.concatenate([rows, api.zeros((1,) + rows.shape[1:], rows.dtype)]).atom
    padded = listed_.rebuilt(padded) if isinstance(listed_, GrowingList) else \
        ComputedList(padded, element=object.__getattribute__(listed_, "element"))
    first = padded[0]
    return if_exp(n > 0, lambda: first, lambda: default, user_location())


def _sum(iterable, /, start=0):
    """Python's ``sum`` of a list the data grow (or one built over an array of run-time
    length): ``start`` plus the sum of its rows. Python's ``sum([])`` is ``start`` itself
    (the int 0), where a list of NumPy scalars or Python floats sums to one of those: a
    value that is a Python number or a NumPy scalar as the data choose (an `if` on the
    length). A list of arrays that may be empty runs the call with NumPy there."""
    if isinstance(iterable, (TracedDict, DictView)):
        iterable = listed(iterable, "sum()")
    if _is_traced(iterable) and iterable.ndim and iterable.shape[0] is None and \
            iterable.kind_flag is None:
        # ``sum(w[y != pred])``: an array of a length known only at run time, whose items
        # (NumPy scalars, or rows) Python adds to ``start`` one by one.
        iterable = ComputedList(api.copy_(iterable).atom, element=None)
    if not isinstance(iterable, ComputedList):
        return builtins.sum(iterable, start)
    if isinstance(iterable, GrowingList) and is_tuple_kind(iterable.item[2]):
        raise unsupported("sum() of a list of tuples the data grow")    # Python's TypeError
    if isinstance(iterable, GrowingList) and numbers_of_several_types(iterable.item):
        raise several_types_read("sum()")
    if isinstance(iterable, GrowingList) and numbers_of_mixed_kinds(iterable.item):
        # A Python number or a NumPy scalar, as the items the data appended.
        raise unsupported("sum() of a list of Python numbers and NumPy scalars the data grow")
    rows = Tracer(iterable.atom)
    element = iterable.element
    # Python adds the items one by one: NumPy scalars of a small int dtype stay of it
    # (``0 + np.int8(3)`` is int8), where np.sum would widen them to int64.
    total = np.sum(rows, axis=0, dtype=rows.dtype if rows.dtype.kind in "iu" else None)
    if element is not None:       # Python numbers: a Python number
        total = emit("convert", [total], {"dtype": total.dtype, "weak": True}, scalar=True)
    least = iterable.least if isinstance(iterable, GrowingList) else 0
    if least > 0 or (element in (bool, int) and type(start) is int):
        return start + total
    where = user_location()
    n = emit("dim", [rows], {"axis": 0})
    if total.ndim:
        total = emit("check", [total, n > 0], {
            "error": "OutsideTheGraph", "weak": total.type.weak,
            "message": f"sum() of an empty list, which is {start!r} in Python, at {where}"})
        return start + total
    return if_exp(n > 0, lambda: start + total, lambda: start, where)


def _list(*args, **kwargs):
    """``list(x)`` in converted code: of a dict keyed by traced values or its views, a
    list the data grow of its keys, values or items; of a list the data grow, a copy; of
    an array (or a list built over one) of run-time length, a list the data grow of its
    rows; the builtin for everything else."""
    if len(args) == 1 and not kwargs and isinstance(args[0], (TracedDict, DictView)):
        return listed(args[0])
    if len(args) == 1 and not kwargs and isinstance(args[0], GrowingList):
        return args[0].copy_rows()      # a new list of the same rows
    if len(args) == 1 and not kwargs:
        rows = list_of_rows(args[0])
        if rows is not None:
            return rows
    return builtins.list(*args, **kwargs)


def deque_as_list(make, *items):
    """``deque(items)`` in converted code, of a deque used only as a list could be (see
    ``convert._list_like_deques``): a list of the same items, in the same order."""
    if make is not collections.deque:
        raise unsupported(f"a call of `{getattr(make, '__name__', make)}`, which is not "
                          f"collections.deque, where the function uses a deque's methods",
                          fix="Import deque from collections, or run the function with NumPy "
                              "(fallback='numpy', the default).")
    return _list(*items)


def _len(x):
    """``len(x)`` in converted code: the length of an array whose first dimension is known
    only at run time is a traced Python int (``len`` itself must return a Python int)."""
    check_bound(x)
    if isinstance(x, Tracer) and x.ndim > 0 and x.type.shape[0] is None:
        return emit("dim", [x], {"axis": 0})
    if isinstance(x, TracedSet):
        return x.size()
    if isinstance(x, (SplitPieces, RaggedList)):
        return x.count()
    if isinstance(x, TracedDict):
        return x.size()
    if isinstance(x, DictView):
        return x.length()
    return len(x)


def _python_number(fn, *args, **kwargs):
    """``float(x)``, ``int(x)`` or ``bool(x)`` in converted code: of one traced element, a
    traced Python number (``python_numbers.from_element``); anything else, the builtin."""
    x = args[0] if len(args) == 1 and not kwargs else None
    if fn is builtins.int and args and isinstance(args[0], Text):
        # The number the call's data's text says, which the graph checks.
        return fn(args[0].made("int(..., base)" if len(args) > 1 or kwargs else "int()"),
                  *args[1:], **kwargs)
    if fn is builtins.bool and isinstance(x, (GrowingList, TracedDict, RaggedList)):
        # Whether it has items, as the data say: a Python bool.
        has = x.is_nonempty()
        return has if not isinstance(has, Tracer) else \
            emit("convert", [has], {"dtype": np.dtype(bool), "weak": True}, scalar=True)
    if not _is_traced(x) or x.dtype.kind not in "biuf" or x.size != 1:
        return fn(*args, **kwargs)
    return python_numbers.from_element(fn, api.reshape_to(x, ()))


def _python_complex(*args, **kwargs):
    """``complex(re, im)`` in converted code, of traced numbers of one element (real or
    complex, as Python takes them: ``re + im * 1j`` of complex parts): a traced Python
    complex; anything else, the builtin."""
    try:
        bound = inspect.signature(complex).bind(*args, **kwargs).arguments
    except (TypeError, ValueError):
        return complex(*args, **kwargs)
    re, im = bound.get("real", 0), bound.get("imag", 0)
    parts = [p for p in (re, im) if _is_traced(p)]
    if not parts or any(p.dtype.kind not in "biufc" or p.size != 1 for p in parts) or \
            any(not _is_traced(p) and type(p) not in (bool, int, float, complex)
                for p in (re, im)):
        return complex(*args, **kwargs)
    given_imag = "imag" in bound
    re, im = (api.reshape_to(p, ()) if _is_traced(p) else to_tracer(p) for p in (re, im))

    def part(x, imaginary=False):
        return python_numbers.from_element(float, np.imag(x) if imaginary else np.real(x))
    # CPython's complex_new: each part a float, corrected by the other's where complex.
    real, imag = part(re), part(im)
    if im.dtype.kind == "c":
        real = real - part(im, imaginary=True)
    if re.dtype.kind == "c" and given_imag:
        imag = imag + part(re, imaginary=True)
    elif re.dtype.kind == "c":
        imag = part(re, imaginary=True)
    return emit("complex", [real, imag], {"weak": True}, scalar=True)


def _numpy_scalar(cls, *args, **kwargs):
    """``np.float32(x)``, ``np.int64(x)`` (a NumPy scalar type called) in converted code: of
    a traced number, that NumPy scalar; of a traced array, the array cast to the type (as
    NumPy gives it); anything else, the type's own call."""
    x = args[0] if len(args) == 1 and not kwargs else None
    try:
        dtype = np.dtype(cls)
    except TypeError:       # an abstract type (np.floating): its own call raises
        dtype = None
    if not _is_traced(x) or x.kind_flag is not None or dtype is None or \
            x.dtype.kind not in "biuf" or dtype.kind not in "biufc":
        return cls(*args, **kwargs)
    return emit("convert", [x], {"dtype": dtype}, scalar=x.ndim == 0)


_NO_DEFAULT = object()
# Python's own iterables of items a ``min``/``max`` compares: taken as a list of them.
_PYTHON_ITERABLES = (collections.abc.Iterator, type({}.keys()), type({}.values()),
                     type({}.items()))


def _extremum(fn, *args, **kwargs):
    """Python's ``min(a, b, ...)``/``max`` of traced numbers, with Python's own rule: the
    first of the smallest (a later one replaces it only if strictly smaller, so a NaN
    first stays, a NaN later is passed over). Only for numbers of one dtype (Python
    returns one of the objects, with its type), and Python numbers that dtype holds
    exactly (``min(x_f32, 0.1)`` may return the double 0.1); the rest take the builtin.
    With ``key=``, ``_extremum_by_key``."""
    if len(args) == 1 and isinstance(args[0], ComputedList):
        return _extremum_of_rows(fn, args[0], **kwargs)
    if len(args) == 1 and set(kwargs) == {"key"}:
        found = extremum_key(fn, args[0], kwargs["key"])
        if found is not None:
            return found
    if len(args) == 1 and isinstance(args[0], (zip_, enumerate_)):
        args = (args[0].python(),)
    elif len(args) == 1 and isinstance(args[0], _PYTHON_ITERABLES):
        # ``max(d.values())``, ``min(v for v in ...)``: the items, in Python's order.
        args = (builtins.list(args[0]),)
    if set(kwargs) <= {"default"} and len(args) == 1 and type(args[0]) in (list, tuple) or \
            set(kwargs) == set() and len(args) > 1:
        items = list(args[0] if len(args) == 1 else args)
        found = _extremum_of_tuples(fn, items, items)
        if found is not None:
            return found
    if kwargs.get("key") is not None:
        return _extremum_by_key(fn, *args, **kwargs)
    if len(args) == 1 and set(kwargs) <= {"default"} and (type(args[0]) in (list, tuple) or
                                                          isinstance(args[0], RowOf)) and \
            len(args[0]) > 1:
        # ``max(values)`` of a list (or a table's row) of traced numbers
        args, kwargs = tuple(args[0]), {}
    if len(args) == 1 and set(kwargs) <= {"default"} and isinstance(args[0], Tracer) and \
            not isinstance(args[0], ListTracer) and args[0].ndim == 1 and \
            args[0].dtype.kind in "biuf" and args[0].kind_flag is None:
        return _extremum_of_array(fn, args[0], kwargs.get("default", _NO_DEFAULT))
    traced = [a for a in args if isinstance(a, Tracer)]
    if kwargs or len(args) < 2 or not traced or not _comparable_numbers(args):
        return fn(*args, **kwargs)
    return _first_best(fn, args, args)


def _empty_message(fn):
    """Python's own message for ``fn`` (``min``/``max``) of no items."""
    try:
        fn([])
    except ValueError as e:
        return str(e)


def _extremum_of_array(fn, x, default):
    """Python's ``max(x)``/``min(x)`` of a 1-d traced array: its elements (NumPy scalars)
    compared in order, a later one taking the place only if strictly larger (smaller):
    the first of the largest, a NaN first stays, a NaN later is passed over. Python's
    ValueError where it is empty and no default is given."""
    n = dim_size(x, 0)
    if not isinstance(n, Tracer) and n == 0:
        return fn(x.tolist(), **({} if default is _NO_DEFAULT else {"default": default}))
    if isinstance(n, Tracer) and default is not _NO_DEFAULT:
        raise unsupported(f"{fn.__name__}(x, default=...) of an array whose length the data "
                          f"choose")
    if isinstance(n, Tracer):
        x = emit("check", [x, n > 0], {
            "error": "ValueError", "message": f"{_empty_message(fn)}\n  at {user_location()}"})
        # One element after the rest that never wins, so that the graph runs where x is
        # empty until the check raises.
        info = np.finfo(x.dtype) if x.dtype.kind == "f" else \
            np.iinfo(x.dtype) if x.dtype.kind in "iu" else None
        last = (-np.inf if x.dtype.kind == "f" else info.min) if fn is builtins.max else \
            (np.inf if x.dtype.kind == "f" else info.max)
        x = api.concatenate([x, api.full((1,), fn is builtins.min if info is None else last,
                                         x.dtype)])
    worst = -np.inf if fn is builtins.max else np.inf
    if x.dtype.kind == "f":
        ranked = np.where(np.isnan(x), worst, x)
    else:
        ranked = x
    at = np.argmax(ranked) if fn is builtins.max else np.argmin(ranked)
    if x.dtype.kind == "f":
        at = np.where(np.isnan(x[0]), 0, at)
    return x[at]


def _extremum_of_tuples(fn, items, keys):
    """``min``/``max`` of tuples holding traced numbers, or by keys that are such tuples or
    choose among tuples (``min(zip(dist, labels))``, ``max((s, i) for i, s in
    enumerate(scores))``, ``max(pairs, key=lambda p: p[1])``): the first item of Python's
    stable sort of them (``min``), or of its reverse sort, which keeps the first of the
    largest first as ``max`` does. None for other items."""
    if not items or not contains_tracer(keys) or not (
            all(type(v) is tuple for v in items) or any(type(k) is tuple for k in keys)):
        return None
    return _ordered_by_keys(items, keys, fn is builtins.max, f"{fn.__name__}()")[0]


def _comparable_numbers(values):
    """Whether ``values`` are 0-d traced numbers and numbers of one dtype (besides Python
    numbers), which that dtype holds exactly: compared or chosen in it as Python would."""
    strong = {np.dtype(a.dtype) for a in values if isinstance(a, (Tracer, np.generic)) and
              not (isinstance(a, Tracer) and a.type.weak)}
    return len(strong) <= 1 and \
        all(isinstance(a, (Tracer, numbers.Number)) for a in values) and \
        not any(isinstance(a, Tracer) and a.ndim for a in values) and \
        (not strong or all(_held_exactly(a, *strong) for a in values))


def _first_best(fn, keys, items):
    """The item whose key is the first of the smallest (``min``) or largest (``max``):
    a later key replaces the best only if strictly better, as Python's builtins do."""
    better = np.less if fn is builtins.min else np.greater
    kinds = [_kind_of(a) for a in items]
    best, best_key, kind = items[0], keys[0], _kind_atom(kinds[0])
    for a, key, k in zip(items[1:], keys[1:], kinds[1:]):
        # The IR's where, not np.where: Python numbers stay Python numbers (weak).
        chosen = to_tracer(better(key, best_key))
        best = emit("where", [chosen, to_tracer(a), to_tracer(best)])
        best_key = best if keys is items else \
            emit("where", [chosen, to_tracer(key), to_tracer(best_key)])
        kind = emit("where", [chosen, Tracer(_kind_atom(k)), Tracer(kind)]).atom
    traced = [a for a in items if isinstance(a, Tracer)]
    out = Tracer(to_tracer(best).atom, is_scalar=all(t.is_scalar for t in traced))
    if not all(isinstance(k, int) and k == kinds[0] for k in kinds):
        # A Python number or a NumPy scalar, as the data choose: the call says which.
        out.kind_flag = kind
        out.kinds = frozenset().union(*(a.kinds if isinstance(k, Var) else {k}
                                        for a, k in zip(items, kinds)))
    return out


def _extremum_of_rows(fn, items, *, default=_NO_DEFAULT, key=None):
    """Python's ``min(items)``/``max`` of a list the data grow (or one built over an array
    of run-time length) of numbers: the first of the smallest, as Python's loop keeps an
    item only if it is strictly smaller than the best so far, so a NaN first is the
    answer and a NaN later is passed over. Of an empty list, Python's ValueError (or
    ``default``: a value whose kind the data choose, as an `if` on the length)."""
    name = fn.__name__
    if key is not None:
        raise unsupported(f"{name}() with key= of {ComputedList.NOUN} or a list the data grow",
                          fix="Compute the keys as an array and pick with np.argmin/np.argmax.")
    if isinstance(items, GrowingList) and items.item[2] == MIXED:
        raise unsupported(f"{name}() of a list of Python numbers and NumPy scalars the data "
                          f"grow")
    if isinstance(items, GrowingList) and is_tuple_kind(items.item[2]):
        raise unsupported(f"{name}() of a list of tuples the data grow")
    rows = Tracer(items.atom)
    if rows.ndim != 1 or rows.dtype.kind not in "biuf":
        raise unsupported(f"{name}() of a list of arrays (or complex numbers) the data grow",
                          fix="Stack the items (np.array(x)) and reduce the array.")
    where = user_location()
    n = emit("dim", [rows], {"axis": 0})
    is_min = fn is builtins.min
    if rows.dtype.kind == "f":
        # Past a first item that is not NaN, NaN items never win a comparison.
        ranked = np.where(np.isnan(rows), np.inf if is_min else -np.inf, rows)
    else:
        ranked = rows
    # One item past the end that never wins over an item before it (the first of equals
    # wins), so an empty list has an index to read (its value is never used).
    if rows.dtype.kind in "iu":
        pad = np.iinfo(rows.dtype).max if is_min else np.iinfo(rows.dtype).min
    elif rows.dtype.kind == "b":
        pad = is_min
    else:
        pad = np.inf if is_min else -np.inf
    ranked = np.concatenate([ranked, np.full(1, pad, rows.dtype)])
    padded = np.concatenate([rows, np.zeros(1, rows.dtype)])
    index = np.argmin(ranked) if is_min else np.argmax(ranked)
    if rows.dtype.kind == "f":
        index = np.where(np.isnan(padded[0]), 0, index)
    value = padded[index]
    if items.element is not None:       # Python numbers: a Python number
        value = emit("convert", [value], {"dtype": value.dtype, "weak": True}, scalar=True)
    least = items.least if isinstance(items, GrowingList) else 0
    if least > 0:
        return value
    if default is _NO_DEFAULT:
        return emit("check", [value, n > 0], {
            "error": "ValueError", "weak": value.type.weak,
            "message": f"{_python_error_message(fn, [])}\n  at {where}"}, scalar=True)
    return if_exp(n > 0, lambda: value, lambda: default, where)


def _python_error_message(fn, *args):
    """The message of the error Python raises for ``fn(*args)``."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        return str(e)
    raise AssertionError(f"{fn.__name__}{args} was expected to raise")

def _extremum_by_key(fn, *args, key, default=_NO_DEFAULT):
    """``max(items, key=f)``/``min``: the item whose key is the first of the largest or
    smallest. Where a key is traced (``max(d, key=d.get)``, ``max(range(n), key=lambda i:
    score[i])``), the keys must be 0-d numbers of one dtype (as ``_extremum`` compares
    them) and the items numbers of one dtype or traced arrays of one type: the data choose
    one of them."""
    if len(args) == 1:
        items = list(args[0])
    else:
        items = list(args)
    extra = {} if default is _NO_DEFAULT else {"default": default}
    if not items or (len(args) > 1 and extra):
        return fn(*(args if len(args) > 1 else (items,)), key=key, **extra)
    keys = [key(item) for item in items]
    if not any(_is_traced(k) for k in keys):
        return items[fn(range(len(items)), key=keys.__getitem__)]
    name = fn.__name__
    if any(type(k) is tuple for k in keys):
        return _extremum_of_tuples(fn, items, keys)
    if not _comparable_numbers(keys):
        raise unsupported(f"{name}(..., key=...) whose keys are traced arrays, or numbers of "
                          f"different dtypes", fix=f"Compare one array of the keys: "
                          f"items[np.arg{name}(keys)].")
    arrays = all(isinstance(a, Tracer) and a.ndim for a in items) and \
        len({a.type for a in items}) == 1
    found = None if arrays or _comparable_numbers(items) else \
        _extremum_of_tuples(fn, items, keys)
    if found is not None:
        return found
    if not arrays and not _comparable_numbers(items):
        raise unsupported(f"{name}(..., key=...) with traced keys choosing among items that "
                          f"are not numbers of one dtype (strings, tuples, other objects)",
                          fix=f"Choose an index: i = int(np.arg{name}(keys)), then items[i] "
                              f"outside the compiled function.")
    return _first_best(fn, keys, items)


def _held_exactly(value, dtype):
    if isinstance(value, Tracer) or not isinstance(value, numbers.Number):
        return True
    with np.errstate(all="ignore"):
        try:
            return np.asarray(value).astype(dtype).item() == value   # compared as Python numbers
        except (OverflowError, TypeError, ValueError):
            return False
