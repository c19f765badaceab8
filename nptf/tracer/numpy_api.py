"""The one table from NumPy callables to IR: ``IMPLS[np.func] = impl``.

Each impl takes NumPy's own signature, normalises the arguments (axis,
keepdims, dtype, ...) and emits IR ops. Result dtypes are asked of NumPy
(``resolve_dtypes``, or the function run on tiny samples); shape rules live in
the ops. Anything absent from the table raises ``UnsupportedError``.
"""
from __future__ import annotations

import functools
import itertools
import math
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from ..errors import DynamicShapeError, unsupported, user_location, with_location
from ..graph_ir.ops import ELEMENTWISE_UFUNCS, slice_length
from ..graph_ir.types import ArrayType, broadcast_shapes, numpy_operand, sample
from ..graph_ir.ir import Literal
from . import python_numbers
from .builder import current_builder
from .python_lists import ComputedList, SplitPieces, element_type
from .tracer import (IN_GRAPH_LOOP, KIND_ARRAY, KIND_PYTHON, KIND_SCALAR, PYTHON_TYPES, NotAnArray,
                     Tracer, check_dtype, concrete_dim, contains_tracer, dim_of, emit, ndim_of,
                     numpy_says, python_kind, python_type_of, to_atom, to_tracer,
                     with_rank_choice)
from .views import Step, derived_view, hold, make_view, mark_readonly

IMPLS = {}
NoValue = np._NoValue


def implements(*funcs):
    def wrap(impl):
        for f in funcs:
            IMPLS[f] = impl
        return impl
    return wrap


def reject(name, **given):
    for arg, value in given.items():
        if value is not None and value is not NoValue and value is not False:
            raise unsupported(f"np.{name}(..., {arg}=...)")


def sample_of(atom):
    if isinstance(atom, Literal) and atom.type.ndim == 0:
        return atom.value if atom.type.weak else np.asarray(atom.value)[()]
    return sample(atom.type)


# --------------------------------------------------------------------- ufuncs
def apply_ufunc(ufunc, args, python_operator=False, dtype=None):
    if any(isinstance(a, Tracer) and a.choice is not None for a in args):
        return _over_rank_options(ufunc, args, python_operator, dtype)
    out = _apply_ufunc(ufunc, args, python_operator, dtype)
    if any(maybe_python_number(a) for a in args):
        out = promotion_checked(ufunc, args, out, f"np.{ufunc.__name__}",
                                python_operator=python_operator,
                                **({"dtype": dtype} if dtype is not None else {}))
    if python_operator and any(isinstance(a, Tracer) and a.kind_flag is not None for a in args):
        out = _kind_after(ufunc.__name__, args, out)
    return out


# Ufuncs whose result for a Python int differs from theirs for the same number as a
# Python float beyond its type (an int stands as a float in a ``RankChoice``).
_INT_SENSITIVE = frozenset({
    "floor_divide", "remainder", "fmod", "divmod", "power", "float_power", "bitwise_and",
    "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift", "gcd", "lcm"})


def _over_rank_options(ufunc, args, python_operator, dtype):
    """``ufunc`` of values whose rank the data choose (``tracer.RankChoice``): applied
    to every option. Where every option gives a result of one type (the operand of a
    larger rank decides the result's), that result; where only the rank of a result of
    one element differs (``lo == -np.inf``, ``lo * 2``), one with a choice of those."""
    choices = [a.choice for a in args if isinstance(a, Tracer) and a.choice is not None]
    promoted = [c for c in choices if c.promoted]
    if ufunc.__name__ in _INT_SENSITIVE and promoted:
        promoted[0].refuse("whether it is a Python int (on a path that gives one)")
    options = [a.choice.options if isinstance(a, Tracer) and a.choice is not None else (a,)
               for a in args]
    results = [apply_ufunc(ufunc, combo, python_operator, dtype)
               for combo in itertools.product(*options)]
    if not all(isinstance(r, Tracer) and r.choice is None and r.kind_flag is None
               for r in results):
        choices[0].refuse()
    types = {(r.type, r.is_scalar) for r in results}
    if len(types) == 1:
        return results[-1]
    if len({(t.dtype, t.size) for t, _ in types}) != 1 or \
            any(set(t.shape) - {1} for t, _ in types):
        choices[0].refuse()
    kept = list({(r.type, r.is_scalar): r for r in results}.values())
    return with_rank_choice(kept, choices[0])


def maybe_python_number(a):
    """A 0-d value an `if` on the data left a Python number on some paths and a NumPy
    scalar (or array) on others."""
    return isinstance(a, Tracer) and a.kind_flag is not None and a.kinds is not None and \
        any(k >= KIND_PYTHON for k in a.kinds) and any(k < KIND_PYTHON for k in a.kinds)


def promotion_checked(fn, args, out, name, /, python_operator=False, **kwargs):
    """``out`` of NumPy's ``fn(*args, **kwargs)`` (``name`` for messages), computed with
    NumPy's promotion of NumPy scalars, checked when the graph runs to come from operands
    that are NumPy scalars where a Python number among them (weak in NumPy 2's promotion:
    ``float32_array * 0.5`` stays float32, ``np.full(3, np.float32(1))`` is float32 but
    ``np.full(3, 1.0)`` float64) would give another dtype; where the data made it a
    Python number, the call runs with NumPy. The operands may sit in lists, tuples and
    dicts (``np.array([v, w])``). Of a Python operator whose operands are all Python
    numbers on some path, that path's result is Python's (``_kind_after``)."""
    flagged = [t for t in _tracer_leaves((args, kwargs)) if maybe_python_number(t)]
    if not flagged:
        return out
    if _same_for_python_numbers(fn, args, kwargs, out, flagged, python_operator):
        return out
    ok = functools.reduce(operator.and_, [Tracer(t.kind_flag) < KIND_PYTHON for t in flagged])
    message = (f"{name} of a value that is a Python number or a NumPy scalar as "
               f"the data choose, at {user_location()}: NumPy's result dtype depends on which "
               f"(a Python number is weak in its promotion), and on this call it is a "
               f"Python number")

    def checked(o):
        if isinstance(o, Tracer):
            return emit("check", [o, ok], {"error": "OutsideTheGraph", "message": message},
                        scalar=o.is_scalar)
        if isinstance(o, (tuple, list)):
            return type(o)(checked(x) for x in o)
        raise unsupported(f"{name} of a value that is a Python number or a NumPy scalar as "
                          f"the data choose, whose result NumPy gives when tracing")
    return checked(out)


def _tracer_leaves(value, depth=0):
    """The Tracers in ``value``, looked for in tuples, lists and dicts (three levels)."""
    if isinstance(value, Tracer):
        yield value
    elif depth < 4 and isinstance(value, (tuple, list)):
        for v in value:
            yield from _tracer_leaves(v, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for v in value.values():
            yield from _tracer_leaves(v, depth + 1)


def _same_for_python_numbers(fn, args, kwargs, out, flagged, python_operator=False):
    """Whether NumPy's ``fn`` gives results of ``out``'s dtypes (or, where nptf knows the
    result when tracing, ``out`` itself) for every Python type the ``flagged`` values may
    have, the other operands stood in for by samples of their types and shapes."""
    outs = _tracer_leaves(out) if not isinstance(out, Tracer) else [out]
    outs = list(outs)
    static = not outs
    choices = [[PYTHON_TYPES[k - KIND_PYTHON] for k in sorted(t.kinds) if k >= KIND_PYTHON]
               for t in flagged]
    # Counted before any is made: a list of many such numbers has 2 ** n combinations.
    if math.prod(len(c) for c in choices) > 8:
        return False
    for combo in itertools.product(*choices):
        python = {id(t): typ(1) for t, typ in zip(flagged, combo)}

        def stand_in(v, depth=0):
            if isinstance(v, Tracer):
                if id(v) in python:
                    return python[id(v)]
                if v.ndim == 0 and (v.is_scalar or v.type.weak):
                    return sample_of(v.carried_atom())
                return np.ones(_probe_shape(v.type.shape), v.dtype)
            if depth < 4 and isinstance(v, (tuple, list)):
                return type(v)(stand_in(x, depth + 1) for x in v)
            if depth < 4 and isinstance(v, dict):
                return {k: stand_in(x, depth + 1) for k, x in v.items()}
            return v
        operands = stand_in(list(args))
        if python_operator and not any(isinstance(a, (np.ndarray, np.generic))
                                       for a in operands):
            continue
        try:
            with np.errstate(all="ignore"):
                weak = fn(*operands, **stand_in(dict(kwargs)))
        except Exception:   # noqa: BLE001  (NumPy refuses the Python number: the data decide)
            return False
        if static:
            try:
                if not bool(np.all(weak == out)) or type(weak) is not type(out):
                    return False
            except Exception:   # noqa: BLE001
                return False
            continue
        weak = list(_numpy_leaves(weak))
        if len(weak) != len(outs) or \
                any(np.asarray(w).dtype != o.dtype for w, o in zip(weak, outs)):
            return False
    return True


def _numpy_leaves(value, depth=0):
    if depth < 4 and isinstance(value, (tuple, list)):
        for v in value:
            yield from _numpy_leaves(v, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for v in value.values():
            yield from _numpy_leaves(v, depth + 1)
    else:
        yield value


def _kind_after(name, args, out):
    """``out`` of a Python operator on a 0-d value an `if` on the data left a Python number
    on one path: a Python number where every operand is one when the graph runs (of the
    type Python's operator gives for that path's types), a NumPy scalar otherwise."""
    if not isinstance(out, Tracer) or out.ndim or name not in python_numbers.OPERATORS:
        return out
    flagged, choices, numpy_path = [], [], False
    for a in args:
        if isinstance(a, Tracer) and a.kind_flag is not None:
            python = sorted(k for k in a.kinds if k >= KIND_PYTHON)
            if not python:
                return out              # never a Python number: NumPy's scalar result
            # A path that leaves None (or nothing) raises here, and gives no value.
            numpy_path |= any(k in (KIND_SCALAR, KIND_ARRAY) for k in a.kinds)
            flagged.append(a.kind_flag)
            choices.append(python)
        elif isinstance(a, Tracer) and a.type.weak:
            choices.append([python_kind(python_type_of(a.type.dtype))])
        elif isinstance(a, (bool, int, float, complex)) and not isinstance(a, np.generic):
            choices.append([python_kind(type(a))])
        else:
            return out                  # a NumPy operand: a NumPy result
    combos = list(itertools.product(*choices))
    if len(combos) > 4:
        raise unsupported(f"Python operator {name} on values `if`s leave Python numbers of "
                          f"several types")
    flag, kinds = np.int8(KIND_SCALAR), {KIND_SCALAR}
    for combo in combos:
        samples = [PYTHON_TYPES[k - KIND_PYTHON](1) for k in combo]
        try:
            python = python_kind(type(python_numbers.OPERATORS[name](*samples)))
        except (ArithmeticError, TypeError, ValueError):
            continue
        flagged_kinds = [k for k, a in zip(combo, args)
                         if isinstance(a, Tracer) and a.kind_flag is not None]
        ok = functools.reduce(operator.and_, [Tracer(f) == k for f, k in
                                              zip(flagged, flagged_kinds)])
        flag = emit("where", [ok, np.int8(python), flag])
        kinds.add(python)
    if not numpy_path and len(kinds) == 2:
        # A Python number on every path that gives a value (``d.get(k) + 1.0`` where the
        # key may be missing): that number.
        (python,) = kinds - {KIND_SCALAR}
        dtype = np.asarray(PYTHON_TYPES[python - KIND_PYTHON](0)).dtype
        return emit("convert", [astype(out, dtype)], {"dtype": dtype, "weak": True},
                    scalar=True)
    if len(kinds) > 1:
        out.kind_flag, out.kinds = flag.atom, frozenset(kinds)
    return out


# NumPy's own ufuncs, taken before any trace swaps ``numpy``'s names for wrappers.
NUMPY_UFUNCS = frozenset(v for v in vars(np).values() if isinstance(v, np.ufunc))


def _apply_ufunc(ufunc, args, python_operator, dtype):
    name = ufunc.__name__
    if name not in ELEMENTWISE_UFUNCS or ufunc not in NUMPY_UFUNCS:
        # (A ufunc of another library may share a NumPy ufunc's name, not its loops.)
        raise unsupported(f"np.{name}" if ufunc in NUMPY_UFUNCS else f"the ufunc {name}")
    for a in args:
        if not isinstance(a, (Tracer, np.ndarray, np.generic, bool, int, float, complex, list, tuple)):
            raise NotAnArray()
    atoms = [to_atom(a) for a in args]
    if dtype is not None and name in _COMPARISONS:
        # A comparison's dtype names its (boolean) result; the operands keep theirs.
        numpy_says(ufunc, *[sample_of(a) for a in atoms], dtype=dtype)
        dtype = None
    if dtype is not None:
        atoms = [to_atom(astype(Tracer(a), dtype)) for a in atoms]
    # Python operators on Python numbers give Python numbers, by Python's rules.
    python = python_operator and python_numbers.all_python_numbers(atoms)
    if python:
        atoms = python_numbers.before(name, atoms)
    numpy_says(ufunc, *[sample_of(a) for a in atoms])
    shapes = [a.type.shape for a in atoms]
    if all(None not in s for s in shapes):
        try:
            np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes " +
                             " ".join(str(s).replace(" ", "") for s in shapes) +
                             f" \n  at {user_location()}") from None
    weak = python
    scalar = all(a.type.ndim == 0 for a in atoms)
    if name in _COMPARISONS:
        settled = _out_of_range_comparison(ufunc, atoms, scalar)
        if settled is not None:
            return settled
        compared = _compare_with_traced_int(ufunc, atoms, scalar)
        if compared is not None:
            return compared
    elif not python:
        atoms = _checked_traced_ints(ufunc, atoms)
    out = emit(name, [Tracer(a) for a in atoms], {"weak": True} if weak else {}, scalar=scalar)
    if name == "power" and out.dtype.kind == "f" and _half_is_sqrt(args, atoms, out,
                                                                      python_operator):
        out = _half_as_sqrt(atoms, out, scalar)
    if python:
        return python_numbers.after(name, atoms, out)
    if name == "power" and out.dtype.kind in "iu" and atoms[1].type.dtype.kind == "i" \
            and not (isinstance(atoms[1], Literal) and atoms[1].type.ndim == 0):
        # NumPy refuses negative integer exponents (a constant one already failed above),
        # among those it uses: none where the broadcast result is empty ((out != out) is
        # all False, of the result's shape).
        out = emit("check", [out, (Tracer(atoms[1]) >= 0) | (out != out)],
                   {"message": "Integers to negative integer powers are not allowed.\n"
                               f"  at {user_location()}", "error": "ValueError"}, scalar=scalar)
    return out


_COMPARISONS = {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"}


def _half_is_sqrt(args, atoms, out, python_operator):
    """Whether NumPy computes this ``x ** 0.5`` as sqrt(x) rather than C's pow: they differ
    at -0.0 (sqrt keeps the sign) and -inf (sqrt: NaN; pow: inf). It depends on the call
    (``ndarray ** e`` and ``**=`` take a lone 0.5 as sqrt, ``np.power``'s float loops one
    exponent used for every element, a NumPy scalar raised to a scalar is C's pow), so
    NumPy is asked: the same call on -0.0 and 0.5 of the same kinds and shapes."""
    if isinstance(atoms[1], Literal) and not np.all(np.asarray(atoms[1].value) == 0.5):
        return False
    base = _probe(args[0], atoms[0], -0.0)
    exponent = _probe(args[1], atoms[1], 0.5)
    with np.errstate(all="ignore"):
        result = base ** exponent if python_operator else np.power(base, exponent)
    return bool(np.any(np.signbit(result)))


def _probe(arg, atom, value):
    """``value`` as the same kind of operand as ``arg``: a Python number, a NumPy scalar, or
    an array of ``atom``'s dtype and rank (sizes 1 kept, others 2: NumPy's fast paths
    depend on an operand being one value broadcast, not on the sizes)."""
    if atom.type.weak:
        return type(atom.value)(value) if isinstance(atom, Literal) else float(value)
    dtype = atom.type.dtype
    if isinstance(arg, np.generic) or (isinstance(arg, Tracer) and arg.is_scalar):
        return dtype.type(value)
    return np.full(tuple(1 if d == 1 else 2 for d in atom.type.shape), value, dtype)


def _half_as_sqrt(atoms, out, scalar):
    exponent = atoms[1]
    root = emit("sqrt", [astype(Tracer(atoms[0]), out.dtype)], scalar=scalar)
    if isinstance(exponent, Literal):
        return root if np.all(np.asarray(exponent.value) == 0.5) else out
    return emit("where", [Tracer(exponent) == 0.5, root, out], scalar=scalar)


def _out_of_range_comparison(ufunc, atoms, scalar):
    """NumPy compares an integer array with a Python int its dtype cannot hold by value
    (``uint8_array >= -3`` is all True), where casting the int would wrap it: the answer
    is the same for every element, so it is NumPy's answer for the dtype's two ends."""
    for i, (number, other) in enumerate((atoms, atoms[::-1])):
        if not (isinstance(number, Literal) and number.type.weak and number.type.ndim == 0 and
                number.type.dtype.kind == "i" and other.type.dtype.kind in "iu" and
                not other.type.weak):
            continue
        value, limits = int(np.asarray(number.value)), np.iinfo(other.type.dtype)
        if limits.min <= value <= limits.max:
            return None
        ends = np.array([limits.min, limits.max], other.type.dtype)
        answer = bool((ufunc(value, ends) if i == 0 else ufunc(ends, value))[0])
        x = Tracer(other)
        same = emit("equal", [x, x], scalar=scalar)        # True everywhere, x's shape
        return same if answer else emit("logical_not", [same], scalar=scalar)
    return None


def _traced_python_int(atom):
    """Whether ``atom`` is a Python int known only at run time (a compiled loop's index, a
    run-time size): NumPy converts it by value, not by type."""
    return not isinstance(atom, Literal) and atom.type.weak and atom.type.dtype.kind == "i" \
        and atom.type.ndim == 0


def _compare_with_traced_int(ufunc, atoms, scalar):
    """``int8_array < i`` for a traced Python int ``i``: NumPy compares by value (``i``
    may be past int8), where casting ``i`` to int8 would wrap it. The array is widened
    to int64 instead; a uint64 array takes NumPy's answer for a negative ``i`` apart."""
    for i, (number, other) in enumerate((atoms, atoms[::-1])):
        if not (_traced_python_int(number) and other.type.dtype.kind in "iu" and
                not other.type.weak) or other.type.dtype == np.int64:
            continue
        x = Tracer(other)
        if other.type.dtype != np.uint64:
            wide = to_atom(astype(x, np.int64))
            pair = (number, wide) if i == 0 else (wide, number)
            return emit(ufunc.__name__, [Tracer(a) for a in pair], scalar=scalar)
        n = Tracer(number)
        ends = np.array([0, np.iinfo(np.uint64).max], np.uint64)
        below = bool((ufunc(-1, ends) if i == 0 else ufunc(ends, -1))[0])
        as_u = astype(emit("maximum", [n, 0], scalar=True), np.uint64)
        pair = (as_u, x) if i == 0 else (x, as_u)
        within = emit(ufunc.__name__, list(pair), scalar=scalar)
        return emit("where", [emit("less", [n, 0], scalar=True), below, within], scalar=scalar)
    return None


def _checked_traced_ints(ufunc, atoms):
    """``atoms`` with a run-time check on each traced Python int that NumPy converts to a
    narrower integer loop (``int8_array + i``): NumPy raises OverflowError where the value
    does not fit, where a cast would wrap it."""
    if not any(_traced_python_int(a) for a in atoms):
        return atoms
    try:
        loop = ufunc.resolve_dtypes(tuple(numpy_operand(a.type) for a in atoms) +
                                    (None,) * ufunc.nout)
    except (TypeError, ValueError, np.exceptions.DTypePromotionError):
        return atoms
    checked = []
    for atom, dtype in zip(atoms, loop):
        if _traced_python_int(atom) and dtype.kind in "iu" and dtype != np.int64:
            limits = np.iinfo(dtype)
            n = Tracer(atom)
            ok = emit("greater_equal", [n, int(limits.min)], scalar=True)
            if dtype != np.uint64:
                ok = emit("logical_and", [ok, emit("less_equal", [n, int(limits.max)],
                                                   scalar=True)], scalar=True)
            atom = emit("check", [n, ok], {
                "message": f"Python integer out of bounds for {dtype}\n  at {user_location()}",
                "error": "OverflowError", "weak": True}, scalar=True).atom
        checked.append(atom)
    return checked


def check_out_cast(ufunc_name, result, out):
    """NumPy casts a ufunc result into ``out`` with the same_kind rule, without broadcasting
    out. Returns the result, with the sizes only the run knows checked to fit ``out``."""
    results = result if isinstance(result, tuple) else (result,)
    checked = []
    for r in results:
        if not np.can_cast(r.dtype, out.dtype, "same_kind"):
            ufunc = getattr(np, ufunc_name)
            if not isinstance(ufunc, np.ufunc):     # np.clip, a function around its ufunc
                ufunc = getattr(np._core.umath, ufunc_name)
            raise with_location(np._core._exceptions._UFuncOutputCastingError(
                ufunc, "same_kind", r.dtype, out.dtype, 0), user_location())
        shown = "(" + ", ".join("?" if d is None else str(d) for d in r.shape) + \
            ("," if r.ndim == 1 else "") + ")"
        message = (f"non-broadcastable output operand with shape {out.shape} doesn't match the "
                   f"broadcast shape {shown}" + (" (? known only at run time)" if None in r.shape
                                                 else "") + f"\n  at {user_location()}")
        if r.shape != out.shape:
            try:
                ok = broadcast_shapes(r.shape, out.shape) == out.shape
            except ValueError:
                ok = False
            if not ok and r.ndim <= out.ndim and (None in r.shape or None in out.shape):
                r = _fitted_to_out(r, out, message)
                ok = r is not None
            if not ok:
                raise ValueError(message)
        checked.append(r)
    return tuple(checked) if isinstance(result, tuple) else checked[0]


def _fitted_to_out(r, out, message):
    """``r`` fitted to ``out``'s shape where one of them has a size known only at run time
    on an axis (``y[t * hop:t * hop + n] += frame`` into ``y`` of a run-time length: the
    slice's length is the run's): each such size of ``r`` must be 1 or ``out``'s, else
    NumPy's ValueError (``message``) after the run (``fit_axis``). None where a known size
    of ``r`` is neither 1 nor ``out``'s known size."""
    offset = out.ndim - r.ndim
    for axis, d in enumerate(r.shape):
        size = out.shape[offset + axis]
        if d == size and d is not None:
            continue
        if d is not None and size is not None:
            if d != 1:
                return None
            continue
        wanted = size if size is not None else dim_of(out, offset + axis)
        r = fit_axis(r, axis, arange(wanted, dtype=np.intp), wanted, message)
    return r


def fit_run_time_sizes(v, shape, message):
    """``v``, whose sizes known only at run time meet the known sizes of ``shape`` (trailing
    axes aligned): each such size must be 1 (it broadcasts) or the known one, else NumPy's
    ValueError (``message``) is raised after the run. Until then ``v`` is cut or padded to
    the known size: the graph runs on past a failed check, so a zero pads an empty axis and
    every take stays in bounds."""
    offset = len(shape) - v.ndim
    for axis, n in enumerate(v.shape):
        size = shape[offset + axis] if offset + axis >= 0 else None
        if n is not None or size is None:
            continue
        v = fit_axis(v, axis, arange(size, dtype=np.intp), size, message)
    return v


def fit_axis(v, axis, index, wanted, message):
    """``v`` along ``axis`` (of a size known only at run time) fitted to ``wanted``
    elements (known, or itself known only at run time), ``index`` being their positions
    0, 1, ...: a size of 1 broadcasts, ``wanted`` passes, any other is NumPy's ValueError
    (``message``) after the run. Until then ``v`` is cut or repeated at ``index``: the
    graph runs on past a failed check, so a zero pads an empty axis and every take stays
    in bounds."""
    count = dim_of(v, axis)
    zero = zeros(tuple(1 if i == axis else dim_of(v, i) for i in range(v.ndim)), v.dtype)
    padded = concatenate([v, zero], axis=axis)
    index = np.maximum(np.minimum(index, count - 1), 0)
    v = emit("take", [padded, index], {"axis": axis})
    return emit("check", [v, (count == wanted) | (count == 1)],
                {"error": "ValueError", "message": message})


def inplace_result(ufunc, target, other):
    """What ``target op= other`` stores: NumPy's result, cast back to ``target``'s dtype."""
    target = to_tracer(target)
    # ``a **= e`` is ndarray.__ipow__, which takes e = 0.5 as sqrt like ``a ** e``.
    result = apply_ufunc(ufunc, (target, other), python_operator=ufunc is np.power)
    result = check_out_cast(ufunc.__name__, result, target)
    result = astype(result, target.dtype)
    return result if result.shape == target.shape else broadcast_to(result, target.shape)


# ------------------------------------------------------------------ creation
def _no_unknown(*values, what):
    if any(v is None for v in values):
        raise DynamicShapeError(f"{what} got a dimension whose size is only known at run time "
                                f"(None). Give that input dimension a fixed size.\n  at {user_location()}")


def shape_tuple(shape):
    _no_unknown(*(shape if isinstance(shape, (tuple, list)) else (shape,)), what="an array shape")
    if isinstance(shape, (int, np.integer)):
        return (operator.index(shape),)
    shape = tuple(operator.index(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"negative dimensions are not allowed\n  at {user_location()}")
    return shape


def run_time_shape(shape):
    """A shape with sizes known only at run time (traced integers, ``len`` of a run-time
    sized array): the shape with None there and the traced sizes, each checked to be
    non-negative when the graph runs; None for a shape of Python ints."""
    dims = shape if isinstance(shape, (tuple, list)) else (shape,)
    if not any(isinstance(d, Tracer) for d in dims):
        return None
    static, sizes = [], []
    for d in dims:
        if not isinstance(d, Tracer):
            d = operator.index(d)
            if d < 0:
                raise ValueError(f"negative dimensions are not allowed\n  at {user_location()}")
            static.append(d)
            continue
        if d.ndim != 0 or d.dtype.kind not in "iu":
            what = "a float" if d.dtype.kind == "f" else f"an array of {d.type}"
            raise TypeError(f"{what} cannot be interpreted as an integer array size\n"
                            f"  at {user_location()}")
        n = astype(d, np.intp)
        sizes.append(emit("check", [n, n >= 0], {
            "error": "ValueError",
            "message": f"negative dimensions are not allowed\n  at {user_location()}"}))
        static.append(None)
    return tuple(static), sizes


def _creation_dtype(dtype, default=np.float64):
    return check_dtype(default if dtype is None else dtype)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    run_time = run_time_shape(shape)
    if run_time is not None:
        fill = to_tracer(fill_value)
        if dtype is not None:
            dt = check_dtype(dtype)
        elif isinstance(fill_value, Tracer) and fill.type.weak:    # a Python number
            dt = np.asarray(sample(fill.type)).dtype
        else:
            dt = fill.dtype if isinstance(fill_value, Tracer) else np.asarray(fill_value).dtype
        static, sizes = run_time
        zeros = emit("full_sized", sizes, {"shape": static, "dtype": dt, "fill": 0})
        if isinstance(fill_value, Tracer) or np.ndim(fill_value) or \
                (isinstance(fill_value, (list, tuple)) and contains_tracer(fill_value)):
            return broadcast_like(astype(fill, dt), zeros)
        value = numpy_says(np.asarray, fill_value, dtype=dt)
        return emit("full_sized", sizes, {"shape": static, "dtype": dt, "fill": value.item()})
    # A new array, as NumPy's: a copy of the fill broadcast (a read-only view of it, or the
    # fill itself where the shapes agree).
    if isinstance(fill_value, Tracer) or (isinstance(fill_value, (list, tuple)) and contains_tracer(fill_value)):
        fill = to_tracer(fill_value)
        dt = check_dtype(dtype if dtype is not None else fill.dtype)
        return copy_(broadcast_to(astype(fill, dt), shape_tuple(shape)))
    fill = np.asarray(fill_value)
    dt = check_dtype(dtype if dtype is not None else fill.dtype)
    shape = shape_tuple(shape)
    if fill.ndim:
        return copy_(broadcast_to(astype(to_tracer(fill), dt), shape))
    value = numpy_says(np.asarray, fill, dtype=dt)
    return emit("full", [], {"shape": shape, "dtype": dt, "fill": value.item()})


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 0, _creation_dtype(dtype))


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 1, _creation_dtype(dtype))


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    # Uninitialised memory in NumPy; zeros are one valid value of it.
    return zeros(shape, dtype)


@implements(np.full_like)
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    a = to_tracer(a)
    dtype = a.dtype if dtype is None else dtype
    if shape is None and a.size is None:
        dt = check_dtype(dtype)
        value = numpy_says(np.asarray, fill_value, dtype=dt)
        if value.ndim or isinstance(fill_value, Tracer):
            return broadcast_like(astype(to_tracer(fill_value), dt), a)
        return emit("full_like", [a], {"dtype": dt, "fill": value.item()})
    return full(a.shape if shape is None else shape, fill_value, dtype)


def elementwise_where(condition, x, y):
    """``np.where(condition, x, y)``: ``x`` where ``condition`` holds, else ``y``."""
    cond = astype(condition, np.bool_)
    xs, ys = to_tracer(x), to_tracer(y)
    numpy_says(np.where, True, sample_of(xs.atom), sample_of(ys.atom))
    out = emit("where", [cond, xs, ys])
    if out.type.weak:
        # Two Python numbers choose between them as NumPy arrays do (np.where(c, 0.5, 1.5)
        # is float64, and a float64 array in later promotion), not as Python numbers.
        out = emit("convert", [out], {"dtype": out.dtype})
    return out


def broadcast_like(x, like):
    """``x`` broadcast to the (possibly run-time) shape of ``like``."""
    return elementwise_where(True, x, full_like(like, 0, x.dtype))


@implements(np.zeros_like)
def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(a, 0, dtype, shape=shape)


@implements(np.ones_like)
def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(a, 1, dtype, shape=shape)


@implements(np.empty_like)
def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(a, 0, dtype, shape=shape)


def arange(start_or_stop, stop=None, step=None, dtype=None, *, device=None, like=None):
    _no_unknown(start_or_stop, what="np.arange")
    start, stop = (0, start_or_stop) if stop is None else (start_or_stop, stop)
    step = 1 if step is None else step
    if any(isinstance(v, Tracer) for v in (start, stop, step)):
        return _arange_traced(start, stop, step, dtype)
    if step == 0:
        raise ZeroDivisionError(f"division by zero in np.arange (step=0)\n  at {user_location()}")
    dt = check_dtype(dtype if dtype is not None else np.result_type(
        *[np.asarray(v) for v in (start, stop, step)]))
    num = max(0, math.ceil((stop - start) / step))
    return emit("arange", [], {"start": start, "step": step, "num": num, "dtype": dt})


def _linspace_run_time(start, stop, num, endpoint, retstep, dtype, axis):
    """``np.linspace`` of a number of samples known only at run time (scalar bounds)."""
    num = _count(num, "np.linspace")
    num = emit("check", [num, num >= 0], {"error": "ValueError", "message":
                                          f"Number of samples must be non-negative.\n"
                                          f"  at {user_location()}"})
    start, stop = to_tracer(start), to_tracer(stop)
    if start.ndim or stop.ndim or retstep or axis != 0:
        raise unsupported("np.linspace of a run-time number of samples with array bounds, "
                          "retstep or axis")
    dt = np.result_type(sample(start.type), sample(stop.type), 1.0)
    start, stop = astype(start, dt), astype(stop, dt)
    div = astype(num - 1 if endpoint else num, dt)
    step = (stop - start) / elementwise_where(div > 0, div, np.ones((), dt))
    idx = astype(arange(num), dt)
    y = elementwise_where(div > 0, idx * step + start, idx * (stop - start) + start)
    if endpoint:
        y = elementwise_where((idx == astype(num - 1, dt)) & (div > 0), stop, y)
    return _as_linspace_dtype(y, dtype)


def _arange_traced(start, stop, step, dtype):
    """``np.arange`` whose bounds are known only at run time: its length is too."""
    bounds = [to_tracer(v) for v in (start, stop, step)]
    for b in bounds:
        if b.ndim != 0 or b.dtype.kind not in "biuf":
            raise TypeError(f"np.arange takes real numbers as bounds, not an array of {b.type}"
                            f"\n  at {user_location()}")
    # NumPy's dtype for bounds of these types (Python numbers stay Python numbers).
    samples = [sample(b.type) if b.type.weak else b.dtype.type(1) for b in bounds]
    samples = [type(v)(i) for v, i in zip(samples, (0, 1, 1))]
    dt = check_dtype(dtype if dtype is not None else numpy_says(np.arange, *samples).dtype)
    # NumPy's error for a step of 0: ZeroDivisionError for Python numbers, ValueError once
    # a NumPy scalar is among the bounds.
    try:
        with np.errstate(all="ignore"):
            np.arange(samples[0], samples[1], type(samples[2])(0))
        zero_step = ZeroDivisionError("division by zero")
    except (ZeroDivisionError, ValueError) as e:
        zero_step = e
    step = bounds[2]
    step = emit("check", [step, step != 0], {
        "error": type(zero_step).__name__,
        "message": f"{zero_step} (np.arange with step 0)\n  at {user_location()}"})
    with np.errstate(all="ignore"):
        span = (astype(bounds[1], np.float64) - astype(bounds[0], np.float64)) / \
            astype(step, np.float64)
    step = emit("check", [step, np.isfinite(span) | (step == 0)], {
        "error": "ValueError",
        "message": f"arange: cannot compute length (a bound is not finite)\n  at {user_location()}"})
    return emit("arange_traced", [bounds[0], bounds[1], step], {"dtype": dt})


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    if isinstance(num, Tracer):
        return _linspace_run_time(start, stop, num, endpoint, retstep, dtype, axis)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.\n  at {user_location()}")
    div = (num - 1) if endpoint else num
    start, stop = to_tracer(start), to_tracer(stop)
    dt = np.result_type(sample(start.type), sample(stop.type), float(num))
    start, stop = astype(start, dt), astype(stop, dt)
    step = (stop - start) / div if div > 0 else None
    idx = arange(0, num, dtype=dt)
    idx = reshape_to(idx, (num,) + (1,) * np.broadcast_shapes(start.shape, stop.shape).__len__())
    y = idx * step + start if step is not None else idx * (stop - start) + start
    if endpoint and num > 1:
        y = elementwise_where(idx == num - 1, stop, y)
    if axis != 0:
        y = moveaxis(y, 0, axis)
    return (_as_linspace_dtype(y, dtype), step) if retstep else _as_linspace_dtype(y, dtype)


def _as_linspace_dtype(y, dtype):
    """``np.linspace``'s samples in the dtype asked for: integers are rounded down, not
    toward zero as a cast would."""
    if dtype is None:
        return y
    if np.issubdtype(np.dtype(dtype), np.integer) and y.dtype.kind in "f":
        y = np.floor(y)
    return astype(y, dtype)


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    if any(isinstance(v, Tracer) for v in (N, M, k)):
        # Sizes known only at run time: the diagonal as a comparison of positions.
        n, m = _count(N, "np.eye"), _count(N if M is None else M, "np.eye")
        rows = reshape_to(arange(n), (None, 1))
        cols = reshape_to(arange(m), (1, None))
        return astype(cols - rows == k, check_dtype(dtype))
    n = operator.index(N)
    return emit("eye", [], {"n": n, "m": n if M is None else operator.index(M),
                            "k": operator.index(k), "dtype": check_dtype(dtype)})


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=float if dtype is None else dtype)


def _copy_flag(copy):
    """``np.array``'s ``copy`` as True (always), None (where needed) or False (never):
    the array API's ``np._CopyMode`` (``array_api_compat`` passes it) too."""
    if isinstance(copy, np._CopyMode):
        return {np._CopyMode.ALWAYS: True, np._CopyMode.NEVER: False}.get(copy)
    return copy


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    copy = _copy_flag(copy)
    if _ragged(object):
        object = object.array_value(dtype)
    if isinstance(object, Tracer):
        object = object.array_value(dtype)
        out = object if dtype is None else astype(object, dtype)
        out = copy_(out) if copy and out is object else out
        if out.type.weak:       # a Python number: an array of its default dtype
            out = emit("convert", [out], {"dtype": out.dtype})
        elif out.is_scalar:     # a NumPy scalar: a 0-d array
            out = Tracer(out.atom)
    elif isinstance(object, (list, tuple)) and contains_tracer(object):
        items = [array(v) for v in object]
        dt = dtype if dtype is not None else np.result_type(*[sample_of(i.atom) for i in items])
        out = stack([astype(i, dt) for i in items]) if items else to_tracer(np.array([], dtype))
    else:
        arr = numpy_says(np.array, object, dtype=dtype, ndmin=ndmin)
        if arr.dtype.kind in "US":
            # Text made from the function's own constants (``np.array(list(word))``):
            # NumPy's array itself, whose comparisons with other constants are constants
            # of the graph. Read-only: a write under a traced `if` would land on both
            # paths' array (NumPy's ValueError, and the call runs with NumPy).
            arr.flags.writeable = False
            return arr
        out = Tracer(to_atom(arr))
    if ndmin > out.ndim:
        out = reshape_to(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    return array(a, dtype, copy=_copy_flag(copy) is True)


def numpy_result(func, args, kwargs, out):
    """``out`` of an implementation of NumPy's ``func`` as the user's code gets it: its
    promotion checked where the data choose whether an operand is a Python number (see
    ``promotion_checked``), copied where NumPy copies (see ``numpys_copy``)."""
    out = promotion_checked(func, args, out, f"np.{getattr(func, '__name__', func)}", **kwargs)
    return numpys_copy(func, args, kwargs, out)


def numpys_copy(func, args, kwargs, out):
    """``out``, or a copy of it where ``out`` is one of the arguments but NumPy's ``func``
    returns a new array (``np.round`` of integers, ``np.nan_to_num`` of integers,
    ``np.pad(x, 0)``): a later write into either must not show in the other. NumPy
    itself, run on samples, says which."""
    if not isinstance(out, Tracer) or out.is_scalar or out.type.weak:
        return out
    tracers = [a for a in itertools.chain(args, kwargs.values()) if isinstance(a, Tracer)]
    if not any(out is a for a in tracers):
        return out
    samples = {id(t): np.ones(_probe_shape(t.shape), t.dtype) for t in tracers}

    def stand_in(a):
        return samples.get(id(a), a) if isinstance(a, Tracer) else a
    try:
        with np.errstate(all="ignore"):
            res = func(*map(stand_in, args), **{k: stand_in(v) for k, v in kwargs.items()})
    except Exception:  # noqa: BLE001  (the implementation has checked the arguments)
        return out
    mine = samples[id(out)]
    if isinstance(res, np.ndarray) and (res is mine or np.shares_memory(res, mine)):
        return out
    return emit("copy", [out])


def _probe_shape(shape):
    """A shape for asking NumPy whether a function copies: the array's own when small,
    else every size cut to 2 (whether NumPy copies depends on the function and its
    arguments, not on the sizes; a probe that fails keeps nptf's own answer)."""
    shape = tuple(2 if d is None else d for d in shape)
    return shape if math.prod(shape) <= 1 << 16 else tuple(min(d, 2) for d in shape)


@implements(np.copy)
def copy_(a, order="K", subok=False):
    a = to_tracer(a)
    return emit("copy", [a])


# -------------------------------------------------------------------- dtypes
def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=False):
    """Cast ``x``; ``copy=True`` (ndarray.astype's default) never returns ``x`` itself."""
    x = to_tracer(x)
    dtype = check_dtype(dtype)
    if casting != "unsafe" and not np.can_cast(x.dtype, dtype, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dtype!r} according to the "
                        f"rule '{casting}'\n  at {user_location()}")
    value = x.atom.value if isinstance(x.atom, Literal) else None
    if x.type.weak and type(value) is int and dtype.kind in "fc":
        # NumPy's own conversion of a Python int: 2**63 and beyond do not fit the int64 the
        # literal is typed as (stored into a float array, 2**63 came out -9.2e18)
        with np.errstate(over="ignore"):
            out = Tracer(Literal(np.asarray(value, dtype=dtype), ArrayType((), dtype)))
    elif x.dtype == dtype and not x.type.weak:
        if not copy:
            return x
        out = copy_(x)
    else:
        out = emit("convert", [x], {"dtype": dtype})
    out.is_scalar = x.is_scalar
    return out


def _python_bool_as_int(val):
    """A traced Python bool's ``.real`` and ``.imag`` are those of the int it stands for."""
    if isinstance(val, Tracer) and val.type.weak and val.dtype.kind == "b":
        return Tracer(python_numbers.as_int(val.atom), is_scalar=True)
    return val


@implements(np.real)
def real(val):
    if isinstance(val, (int, float, complex)):
        return val.real         # NumPy reads the attribute: a Python number stays one
    val = _python_bool_as_int(val)
    if isinstance(val, Tracer) and not val.type.weak and not val.is_scalar:
        if val.dtype.kind != "c":
            return val          # NumPy's a.real of a real array is a itself
        return derived_view(val, emit("real", [val]), lambda t: emit("real", [t]),
                            "np.real of a complex array",
                            lambda p, re: emit("complex", [re, emit("imag", [p])]))
    return emit("real", [val], scalar=getattr(val, "is_scalar", False))   # of a scalar: a scalar


@implements(np.imag)
def imag(val):
    if isinstance(val, (int, float, complex)):
        return val.imag
    val = _python_bool_as_int(val)
    if isinstance(val, Tracer) and not val.type.weak and not val.is_scalar:
        if val.dtype.kind != "c":
            return mark_readonly(emit("imag", [val]))   # NumPy's zeros, read-only
        return derived_view(val, emit("imag", [val]), lambda t: emit("imag", [t]),
                            "np.imag of a complex array",
                            lambda p, im: emit("complex", [emit("real", [p]), im]))
    return emit("imag", [val], scalar=getattr(val, "is_scalar", False))


# ------------------------------------------------------------ shape changes
@implements(np.reshape)
def reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    a = to_tracer(a)
    shape = newshape if shape is None else shape
    if order not in ("C", "A"):
        raise unsupported(f"np.reshape(..., order={order!r})")
    if isinstance(shape, Tracer) or (isinstance(shape, (tuple, list)) and
                                     any(isinstance(d, Tracer) for d in shape)):
        return _reshape_run_time(a, shape if isinstance(shape, (tuple, list)) else (shape,))
    shape = (operator.index(shape),) if isinstance(shape, (int, np.integer)) else \
        tuple(operator.index(d) for d in shape)
    if shape.count(-1) > 1:
        raise ValueError(f"can only specify one unknown dimension\n  at {user_location()}")
    if a.size is None and not _always_fits(a, shape):
        # Sizes known only at run time, which may not multiply to the target's: NumPy's
        # error after the run, where a bare reshape would fail inside TensorFlow first.
        return _reshape_run_time(a, shape)
    if -1 in shape and a.size is None:
        shape = tuple(None if d == -1 else d for d in shape)
    elif -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or a.size % known:
            raise ValueError(f"cannot reshape array of size {a.size} into shape {shape}\n"
                             f"  at {user_location()}")
        shape = tuple(a.size // known if d == -1 else d for d in shape)
    return reshape_to(a, shape)


def _count(d, what):
    """A traced count (a size, a number of repeats) as int64, or a Python int."""
    if not isinstance(d, Tracer):
        return operator.index(d)
    if d.ndim != 0 or d.dtype.kind not in "iu":
        raise TypeError(f"{what} takes integers, not an array of {d.type}\n  at {user_location()}")
    return astype(d, np.intp)


def _always_fits(a, shape):
    """Whether ``a`` (of a size known only at run time) reshapes to ``shape`` (static
    sizes, at most one -1) whatever its size: a -1 and static sizes whose product divides
    that of ``a``'s static dimensions."""
    known = math.prod(d for d in shape if d != -1)
    static = math.prod(d for d in a.shape if d is not None)
    return -1 in shape and known > 0 and static % known == 0


def _reshape_run_time(a, shape):
    """``a.reshape(shape)`` with sizes known only at run time (one may be -1): NumPy's
    ValueError after the run where the sizes do not multiply to ``a``'s size."""
    if IN_GRAPH_LOOP.get() and any(isinstance(d, Tracer) for d in shape):
        a._concrete("a reshape to sizes that change from one iteration of a loop to the next",
                    "Give the loop a trip count known when tracing: it then runs unrolled.")
    dims = [_count(d, "reshape") for d in shape]
    if sum(1 for d in dims if not isinstance(d, Tracer) and d == -1) > 1:
        raise ValueError(f"can only specify one unknown dimension\n  at {user_location()}")
    total = math.prod([dim_of(a, i) for i in range(a.ndim)]) if a.ndim else 1
    known = math.prod([d for d in dims if isinstance(d, Tracer) or d != -1])
    message = f"cannot reshape an array into a shape whose sizes do not multiply to its size\n" \
              f"  at {user_location()}"
    if any(not isinstance(d, Tracer) and d == -1 for d in dims):
        fits = (known > 0) & (total % np.maximum(known, 1) == 0)
        dims = [total // np.maximum(known, 1) if not isinstance(d, Tracer) and d == -1 else d
                for d in dims]
    else:
        fits = known == total
    fits = functools.reduce(operator.and_, [d >= 0 for d in dims if isinstance(d, Tracer)], fits)
    sizes = [emit("check", [d, fits], {"error": "ValueError", "message": message})
             for d in dims if isinstance(d, Tracer)]
    if not sizes:       # static sizes, an array of a size known only at run time
        a = emit("check", [a, fits], {"error": "ValueError", "message": message})
    shape = tuple(None if isinstance(d, Tracer) else d for d in dims)
    out = emit("reshape_sized", [a] + sizes, {"shape": shape})
    # A view: it reads ``a``'s memory again after ``a`` is written; writes through it
    # are refused (their places in ``a`` are not traced).
    return make_view(a, out, Step("reshape_sized",
                                  lambda t: emit("reshape_sized", [t] + sizes, {"shape": shape}),
                                  None), lambda s: None)


def reshape_to(a, shape):
    """Reshape to ``shape`` (``None`` entries: dimensions of unknown size); a view where
    NumPy's reshape would give one."""
    a = to_tracer(a)
    shape = tuple(shape)
    if shape == a.shape:
        return a
    out = emit("reshape", [a], {"shape": shape})
    return make_view(a, out, Step("reshape", lambda t: emit("reshape", [t], {"shape": shape}),
                                  lambda x: x.reshape(shape)),
                     lambda s: np.reshape(s, shape, copy=False))


@implements(np.ravel)
def ravel(a, order="C"):
    if order not in ("C", "A"):
        raise unsupported(f"np.ravel(..., order={order!r})")
    a = to_tracer(a)
    if a.ndim == 1:
        return a
    shape = (None if a.size is None else a.size,)
    out = emit("reshape", [a], {"shape": shape})
    # A view only of a C-contiguous array: ravel copies where reshape(-1) could still
    # give a view (a[:, ::2] of a C-ordered a).
    return make_view(a, out, Step("reshape", lambda t: emit("reshape", [t], {"shape": shape}),
                                  lambda x: x.reshape(shape)), _ravel_view)


def _ravel_view(stand_in):
    if not stand_in.flags.c_contiguous:
        raise ValueError("np.ravel copies")
    return stand_in.reshape(-1)


@implements(np.transpose)
def transpose(a, axes=None):
    a = to_tracer(a)
    perm = tuple(reversed(range(a.ndim))) if axes is None else \
        tuple(normalize_axis_tuple(axes, a.ndim, allow_duplicate=True))
    if len(perm) != a.ndim or len(set(perm)) != a.ndim:
        raise ValueError(f"axes don't match array\n  at {user_location()}")
    if perm == tuple(range(a.ndim)):
        return a
    out = emit("transpose", [a], {"perm": perm})
    return make_view(a, out, Step("transpose", lambda t: emit("transpose", [t], {"perm": perm}),
                                  lambda x: x.transpose(perm)), lambda s: s.transpose(perm))


def axis_index(axis, ndim):
    try:
        return normalize_axis_index(axis, ndim)
    except np.exceptions.AxisError as e:
        raise with_location(e, user_location()) from None


def axes_of(axis, ndim, reduce_like=True):
    """``axis`` as a tuple of non-negative axes. ``reduce_like``: as a ufunc's reduce
    reads it, which lets a 0-d array name axis 0 or -1 (not as a tuple); np.flip,
    np.median and the like refuse that."""
    if axis is None:
        return tuple(range(ndim))
    if reduce_like and ndim == 0 and not isinstance(axis, tuple) and axis in (0, -1):
        return ()
    try:
        return normalize_axis_tuple(axis, ndim)
    except (np.exceptions.AxisError, ValueError) as e:
        raise with_location(e, user_location()) from None


@implements(np.moveaxis)
def moveaxis(a, source, destination):
    a = to_tracer(a)
    src, dst = axes_of(source, a.ndim), axes_of(destination, a.ndim)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


@implements(np.swapaxes)
def swapaxes(a, axis1, axis2):
    a = to_tracer(a)
    perm = list(range(a.ndim))
    i, j = axis_index(axis1, a.ndim), axis_index(axis2, a.ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


@implements(np.expand_dims)
def expand_dims(a, axis):
    a = to_tracer(a)
    axes = axes_of(axis, a.ndim + (len(axis) if isinstance(axis, (tuple, list)) else 1))
    dims = iter(a.shape)
    return reshape_to(a, tuple(1 if i in axes else next(dims) for i in range(a.ndim + len(axes))))


@implements(np.squeeze)
def squeeze(a, axis=None):
    a = to_tracer(a)
    if axis is None:
        # Whether a dimension known only at run time is squeezed decides the result's rank.
        sizes = [d if d is not None else concrete_dim(a, i, "np.squeeze") for i, d in enumerate(a.shape)]
        axes = tuple(i for i, d in enumerate(sizes) if d == 1)
    else:
        axes = axes_of(axis, a.ndim)
        for i in axes:
            concrete_dim(a, i, "np.squeeze")
    for i in axes:
        if a.shape[i] != 1:
            raise ValueError(f"cannot select an axis to squeeze out which has size not equal to "
                             f"one\n  at {user_location()}")
    return reshape_to(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def repeated_list(items, count):
    """``items * count`` of a list of numbers (``[0] * n``, ``[i] * k``) and an integer
    count known only at run time: a list of that run-time length (``ComputedList``), the
    items repeated count times (none for a count below one, as Python gives); None for
    other items (Python needs the count's value)."""
    if not items:
        return None
    if all(isinstance(v, Tracer) and v.ndim == 0 for v in items):
        dtypes = {v.dtype for v in items}
        if len(dtypes) != 1:
            return None
        (dtype,) = dtypes
        weak = all(v.type.weak for v in items)
        if not weak and not all(v.is_scalar for v in items):
            return None
        element = python_type_of(dtype) if weak else None
    else:
        element = element_type(items)
        if element is None:
            return None
    block = array(items)
    times = astype(np.maximum(count, 0), np.intp)
    flat = reshape(full((times, len(items)), block, block.dtype), (-1,))
    return ComputedList(flat.atom, element=element)


@implements(np.broadcast_to)
def broadcast_to(array, shape, subok=False):
    array = to_tracer(array)
    run_time = run_time_shape(shape)
    if run_time is None and isinstance(shape, tuple) and array.shape == shape:
        return array
    if run_time is not None:
        return _broadcast_to_sized(array, shape, run_time)
    shape = shape_tuple(shape)
    if array.shape == shape:
        return array
    if len(shape) < array.ndim:
        raise ValueError(f"input operand has more dimensions than allowed by the axis remapping\n"
                         f"  at {user_location()}")
    out = emit("broadcast_to", [array], {"shape": shape})
    out = make_view(array, out, Step("broadcast_to",
                                     lambda t: emit("broadcast_to", [t], {"shape": shape}),
                                     lambda x: np.broadcast_to(x, shape)),
                    lambda s: np.broadcast_to(s, shape))
    return mark_readonly(out) if out._view is not None else out


def _broadcast_to_sized(array, shape, run_time):
    """``np.broadcast_to`` of a shape with sizes known only at run time (``n =
    np.count_nonzero(m)``): a new array, read-only as NumPy's view is. NumPy's view shows
    later writes into ``array``; here they are refused (``views.hold``)."""
    static, sizes = run_time
    if len(static) < array.ndim:
        raise ValueError(f"input operand has more dimensions than allowed by the axis remapping\n"
                         f"  at {user_location()}")
    sizes = iter(sizes)
    dims = [next(sizes) if d is None else d for d in static]
    for k, d in enumerate(array.shape):
        target = dims[len(dims) - array.ndim + k]
        if d == 1:
            continue
        d = d if d is not None else emit("dim", [array], {"axis": k})
        if isinstance(target, Tracer) or isinstance(d, Tracer):
            array = emit("check", [array, to_tracer(d) == target], {
                "error": "ValueError",
                "message": f"operands could not be broadcast together with remapped shapes "
                           f"(np.broadcast_to, sizes known only at run time)\n"
                           f"  at {user_location()}"})
        elif d != target:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: {array.shape} and requested shape "
                             f"{tuple(static)}\n  at {user_location()}")
    out = full(tuple(dims), array, array.dtype)
    hold(array, "np.broadcast_to made a view of it of a shape known only at run time, "
                "which nptf holds as a copy")
    return mark_readonly(out)


@implements(np.broadcast_arrays)
def broadcast_arrays(*args, subok=False):
    ts = [to_tracer(a) for a in args]
    shape = numpy_says(np.broadcast_shapes, *[t.shape for t in ts])
    return tuple(broadcast_to(t, shape) for t in ts)


@implements(np.atleast_1d)
def atleast_1d(*arys):
    res = [reshape_to(a, (1,)) if to_tracer(a).ndim == 0 else to_tracer(a) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


@implements(np.atleast_2d)
def atleast_2d(*arys):
    res = []
    for a in arys:
        a = to_tracer(a)
        res.append(reshape_to(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)
    return res[0] if len(res) == 1 else tuple(res)


def gather_axes_last(a, axis):
    """``a`` with the reduced axes merged into one last axis; also the kept shape."""
    axes = axes_of(axis, a.ndim, reduce_like=False)
    kept = [i for i in range(a.ndim) if i not in axes]
    merged = transpose(a, kept + list(axes))
    kept_shape = tuple(a.shape[i] for i in kept)
    if len(axes) == 1 and a.shape[axes[0]] is None:     # a length known only at run time
        return merged, axes, kept_shape
    n = int(np.prod([a.shape[i] for i in axes])) if axes else 1
    return reshape(merged, kept_shape + (n,)), axes, kept_shape


def _ragged(arrays):
    """Whether ``arrays`` is a list of arrays of run-time lengths (``ragged_lists``), which
    joins and stacks itself."""
    return getattr(type(arrays), "nptf_ragged", False)


def rows_of(arrays, verb="concatenate"):
    """The array whose rows a sequence argument is, when it is one array of a length known
    only at run time (a list built over such an array): NumPy takes an array there as the
    sequence of its rows, so the functions below work on it whole; of no rows when the
    graph runs, NumPy's ValueError ("need at least one array to ``verb``"). A ragged list
    gives its items as rows, where they are of one length when the graph runs. Else None."""
    if _ragged(arrays):
        return arrays.stacked(verb)
    if isinstance(arrays, Tracer) and arrays.ndim and arrays.shape[0] is None:
        rows = arrays.array_value()
        return emit("check", [rows, emit("dim", [rows], {"axis": 0}) > 0], {
            "error": "ValueError",
            "message": f"need at least one array to {verb}\n  at {user_location()}"})
    return None


def _concat_args(arrays):
    ts = [to_tracer(a) for a in arrays]
    if not ts:
        raise ValueError(f"need at least one array to concatenate\n  at {user_location()}")
    return ts


@implements(np.concatenate)
def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    reject("concatenate", out=out)
    if _ragged(arrays) and axis in (0, -arrays.flat.ndim, None):
        flat = arrays.concatenated()
        out = ravel(flat) if axis is None else flat
        return astype(out, dtype) if dtype is not None else out
    rows = rows_of(arrays)
    if rows is not None:
        return concatenate_rows(rows, axis, dtype)
    ts = _concat_args(arrays)
    if axis is None:
        ts, axis = [ravel(t) for t in ts], 0
    if any(t.ndim == 0 for t in ts):
        raise ValueError(f"zero-dimensional arrays cannot be concatenated\n  at {user_location()}")
    if len({t.ndim for t in ts}) > 1:
        raise ValueError(f"all the input arrays must have same number of dimensions\n"
                         f"  at {user_location()}")
    axis = axis_index(axis, ts[0].ndim)
    out = emit("concatenate", ts, {"axis": axis})
    return astype(out, dtype) if dtype is not None else out


def concatenate_rows(rows, axis, dtype):
    """``np.concatenate`` of the rows of ``rows``: axis 0 merged into ``axis`` of a row."""
    if axis is None:
        out = ravel(rows)
    else:
        if rows.ndim < 2:
            raise ValueError(f"zero-dimensional arrays cannot be concatenated\n"
                             f"  at {user_location()}")
        axis = axis_index(axis, rows.ndim - 1)
        moved = moveaxis(rows, 0, axis)
        out = reshape(moved, moved.shape[:axis] + (-1,) + moved.shape[axis + 2:])
    return astype(out, dtype) if dtype is not None else out


@implements(np.stack)
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    rows = rows_of(arrays, "stack")
    if rows is not None:
        reject("stack", out=out)
        out = moveaxis(rows, 0, axis_index(axis, rows.ndim))
        return astype(out, dtype) if dtype is not None else out
    ts = _concat_args(arrays)
    if len({t.shape for t in ts}) > 1:
        raise ValueError(f"all input arrays must have the same shape\n  at {user_location()}")
    axis = axis_index(axis, ts[0].ndim + 1)
    return concatenate([expand_dims(t, axis) for t in ts], axis, out, dtype=dtype)


@implements(np.vstack, np.row_stack) if hasattr(np, "row_stack") else implements(np.vstack)
def vstack(tup, *, dtype=None, casting="same_kind"):
    if _ragged(tup) and tup.flat.ndim >= 2:
        return concatenate(tup, 0, dtype=dtype)
    rows = rows_of(tup)
    if rows is not None:
        out = reshape_to(rows, (rows.shape[0], 1)) if rows.ndim == 1 else \
            rows if rows.ndim == 2 else concatenate_rows(rows, 0, None)
        return astype(out, dtype) if dtype is not None else out
    return concatenate([atleast_2d(t) for t in _concat_args(tup)], 0, dtype=dtype)


@implements(np.hstack)
def hstack(tup, *, dtype=None, casting="same_kind"):
    if _ragged(tup) and tup.flat.ndim == 1:
        return concatenate(tup, 0, dtype=dtype)
    rows = rows_of(tup)
    if rows is not None:
        out = rows if rows.ndim == 1 else concatenate_rows(rows, 0 if rows.ndim == 2 else 1,
                                                             None)
        return astype(out, dtype) if dtype is not None else out
    ts = [atleast_1d(t) for t in _concat_args(tup)]
    return concatenate(ts, 0 if ts[0].ndim == 1 else 1, dtype=dtype)


@implements(np.split)
def split(ary, indices_or_sections, axis=0):
    if isinstance(indices_or_sections, (int, np.integer)):
        n = to_tracer(ary).shape[axis_index(axis, ndim_of(ary))]
        if n is not None and int(indices_or_sections) > 0 and n % int(indices_or_sections):
            raise ValueError("array split does not result in an equal division"
                             f"\n  at {user_location()}")
    return array_split(ary, indices_or_sections, axis)


@implements(np.array_split)
def array_split(ary, indices_or_sections, axis=0):
    a = to_tracer(ary)
    axis = axis_index(axis, a.ndim)
    n = a.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = np.cumsum([0] + sizes).tolist()
    elif isinstance(indices_or_sections, Tracer) or \
            isinstance(indices_or_sections, (list, tuple)) and \
            any(isinstance(i, Tracer) for i in indices_or_sections):
        return _split_at_traced(a, indices_or_sections, axis)
    else:
        bounds = [0] + [min(max(int(i) + (n if int(i) < 0 else 0), 0), n)
                        for i in indices_or_sections] + [n]
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        key = [slice(None)] * a.ndim
        key[axis] = slice(lo, max(lo, hi))
        pieces.append(a[tuple(key)])
    return pieces



def _split_at_traced(a, indices, axis):
    """``np.array_split(a, indices, axis)`` at positions only the data give: a Python list
    of views between them where their number is known when tracing, else a
    ``SplitPieces``. NumPy slices from each position to the next (a position past the
    next gives an empty piece), counting negative positions from the end."""
    indices = asarray(indices)
    if indices.ndim != 1 or indices.dtype.kind not in "biu":
        raise unsupported("np.split() at positions that are not a 1-d array of integers "
                          "known only at run time")
    n = a.shape[axis]
    n = emit("dim", [a], {"axis": axis}) if n is None else n
    positions = astype(indices, np.int64)
    positions = np.clip(np.where(positions < 0, positions + n, positions), 0, n)
    bounds = concatenate([zeros((1,), np.int64), positions,
                          reshape(astype(to_tracer(n), np.int64), (1,))])
    starts = bounds[:-1]
    stops = np.maximum(starts, bounds[1:])
    if indices.shape[0] is None:
        return SplitPieces(a, starts, stops, axis)
    pieces = SplitPieces(a, starts, stops, axis)
    return [pieces.piece(k) for k in range(indices.shape[0] + 1)]


@implements(np.flip)
def flip(m, axis=None):
    m = to_tracer(m)
    axes = axes_of(axis, m.ndim, reduce_like=False)
    return m[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))]


@implements(np.fliplr)
def fliplr(m):
    return flip(m, 1)


@implements(np.flipud)
def flipud(m):
    return flip(m, 0)


@implements(np.tile)
def tile(A, reps):
    A = to_tracer(A)
    if isinstance(reps, Tracer) or (isinstance(reps, (tuple, list)) and contains_tracer(reps)):
        return _tile_run_time(A, reps)
    reps = (operator.index(reps),) if isinstance(reps, (int, np.integer)) else tuple(reps)
    ndim = max(A.ndim, len(reps))
    A = reshape_to(A, (1,) * (ndim - A.ndim) + A.shape)
    reps = (1,) * (ndim - len(reps)) + reps
    return emit("tile", [A], {"reps": reps}) if any(r != 1 for r in reps) else copy_(A)


def _tile_run_time(A, reps):
    """``np.tile`` with repeats known only at run time: ``A`` broadcast along a new axis
    before each of its own, then merged."""
    reps = list(reps) if isinstance(reps, (tuple, list)) else [reps]
    reps = [_count(r, "np.tile") for r in reps]
    ndim = max(A.ndim, len(reps))
    A = reshape_to(A, (1,) * (ndim - A.ndim) + A.shape)
    reps = [1] * (ndim - len(reps)) + reps
    wide = reshape_to(A, tuple(x for d in A.shape for x in (1, d)))
    target = [x for i in range(ndim) for x in (reps[i], dim_of(A, i))]
    grown = elementwise_where(True, wide, full(tuple(target), 0, A.dtype))
    return reshape(grown, tuple(r * dim_of(A, i) for i, r in enumerate(reps)))


def _repeat_each_run_time(a, repeats, axis):
    """``np.repeat`` with one count per element known only at run time
    (``np.repeat(np.arange(len(C)), C)``): output position p takes the first element whose
    running count passes p."""
    n, m = a.shape[axis], repeats.shape[0] if repeats.ndim == 1 else None
    if repeats.ndim != 1 or repeats.dtype.kind not in "biu" or repeats.dtype == np.uint64:
        # NumPy casts the counts to intp by the 'safe' rule, and takes them 0-d or 1-d.
        numpy_says(np.repeat, np.zeros(n or 1), np.zeros(
            tuple(d or 1 for d in repeats.shape), repeats.dtype))
        raise unsupported(f"np.repeat with traced counts of {repeats.type}")
    if n is None or m is None:
        # The sizes meet when the graph runs: one count for every element, or one for all
        # (NumPy broadcasts a single count).
        from .tracer import dim_of
        n_, m_ = dim_of(a, axis), dim_of(repeats, 0)
        fits = (m_ == n_) | (m_ == 1)
        m_ = emit("check", [m_, fits], {
            "error": "ValueError",
            "message": f"operands could not be broadcast together with shape ({n or '?'},) "
                       f"({m or '?'},) (? known only at run time)\n  at {user_location()}"},
            scalar=True)
        repeats = np.take(repeats, arange(n_) * (m_ != 1).astype(np.intp))
        m = n = None
    elif m == 1:
        return repeat(a, reshape_to(repeats, ()), axis)
    if m != n and m is not None:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({m},)"
                         f"\n  at {user_location()}")
    counts = astype(repeats, np.intp)
    counts = emit("check", [counts, np.all(counts >= 0)], {
        "error": "ValueError",
        "message": f"repeats may not contain negative values.\n  at {user_location()}"})
    ends = np.cumsum(counts)
    positions = arange(np.sum(counts))
    return np.take(a, np.searchsorted(ends, positions, side="right"), axis=axis)


@implements(np.repeat)
def repeat(a, repeats, axis=None):
    a = to_tracer(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = axis_index(axis, a.ndim)
    if isinstance(repeats, Tracer) and repeats.ndim == 0:
        # One count known only at run time: each element broadcast along a new axis.
        r = _count(repeats, "np.repeat")
        r = emit("check", [r, r >= 0], {"error": "ValueError", "message":
                                        f"negative dimensions are not allowed\n  at {user_location()}"})
        moved = moveaxis(a, axis, -1)
        wide = reshape_to(moved, moved.shape + (1,))
        grown = elementwise_where(True, wide, full(
            tuple(dim_of(moved, i) for i in range(moved.ndim)) + (r,), 0, a.dtype))
        flat = reshape(grown, tuple(dim_of(moved, i) for i in range(moved.ndim - 1)) +
                       (dim_of(moved, moved.ndim - 1) * r,))
        return moveaxis(flat, -1, axis)
    if isinstance(repeats, Tracer):
        return _repeat_each_run_time(a, repeats, axis)
    reps = np.asarray(repeats)
    if reps.ndim == 0 or reps.size == 1:
        reps = int(reps.reshape(()))
        if reps < 0:
            raise ValueError("negative dimensions are not allowed")
    else:
        if a.shape[axis] is None:
            raise unsupported("np.repeat with one count per element along an axis of size "
                              "known only at run time")
        if reps.shape != (a.shape[axis],):
            raise ValueError(f"operands could not be broadcast together with shape "
                             f"({a.shape[axis]},) ({reps.size},)\n  at {user_location()}")
        reps = tuple(int(r) for r in reps)
        if any(r < 0 for r in reps):
            raise ValueError(f"repeats may not contain negative values.\n  at {user_location()}")
    return emit("repeat", [a], {"repeats": reps, "axis": axis})


# ------------------------------------------------------------------ indexing
def normalize_slice(s, dim):
    if dim is None:
        # Unknown size: keep Python's slice; TensorFlow's strided_slice has the same rules.
        step = 1 if s.step is None else operator.index(s.step)
        if step == 0:
            raise ValueError("slice step cannot be zero")
        return ("raw", s.start, s.stop, step)
    start, stop, step = s.indices(dim)
    if not len(range(start, stop, step)):
        return (0, 0, 1)   # empty; also avoids start=-1 meaning "the last element"
    if step < 0 and stop < 0:
        stop = None
    return (start, stop, step)


def is_basic_key(key):
    return all((k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer))) and
               not isinstance(k, (bool, np.bool_)) for k in key)


_INTP = np.dtype(np.intp)


def index_array(k):
    """The index array NumPy makes of ``k`` (an array, or a list the graph holds as one).
    NumPy indexes by an empty list as by an empty array of integers, so a list of
    integers stands as the array of its items even where the data leave it empty."""
    if not isinstance(k, Tracer):
        return k
    item = getattr(k, "item", None) if getattr(type(k), "NOUN", None) is not None else None
    if type(item) is tuple and item[0] == () and np.dtype(item[1]).kind in "iu":
        return k.array_value(np.intp)
    return k.array_value()


def _index_literal(arr):
    return Tracer(Literal(arr, ArrayType(arr.shape, arr.dtype)))


def checked_index(idx, dim, axis):
    """Index array with negatives resolved; out-of-bounds raises IndexError (now or at run time).
    ``dim`` is the axis's size: an int, or a traced one for a size known only at run time."""
    if isinstance(dim, Tracer) and not isinstance(idx, Tracer):
        idx = _index_literal(np.asarray(idx, _INTP))
    if not isinstance(idx, Tracer):
        idx = np.asarray(idx)
        bad = (idx < -dim) | (idx >= dim)
        if bad.any():
            raise IndexError(f"index {idx[bad].flat[0]} is out of bounds for axis {axis} with "
                             f"size {dim}\n  at {user_location()}")
        return _index_literal(np.where(idx < 0, idx + dim, idx).astype(_INTP))
    if dim is None:
        raise unsupported("integer-array indexing along a dimension of unknown size")
    if current_builder().fact("in_bounds", idx.atom):
        return idx
    size = "its run-time size" if isinstance(dim, Tracer) else f"size {dim}"
    idx = astype(idx, _INTP)
    fixed = np.where(idx < 0, idx + dim, idx)
    ok = (fixed >= 0) & (fixed < dim)
    # The error is raised after the run; until then the gather must stay in bounds.
    safe = np.where(ok, fixed, 0)
    return emit("check", [safe, ok], {"error": "IndexError",
                                       "message": f"index out of bounds for axis {axis} with "
                                                  f"{size}\n  at {user_location()}"})


def _checked_run_time_ints(x, out, indices):
    """``out``, sliced from ``x`` by ints along axes of run-time size, with each of those
    axes holding one element: where an int lies past the end, the slice is empty and NumPy
    raises IndexError, which a check raises after the run; until then a zero stands in
    for the missing element, so the graph's shapes hold."""
    ok = None
    for axis, i in indices:
        n = dim_of(x, axis)
        inside = n > i if i >= 0 else n >= -i
        ok = inside if ok is None else ok & inside
        pad = full(tuple(1 if d == axis else dim_of(out, d) for d in range(out.ndim)), 0,
                   out.dtype)
        first = ("raw", 0, 1, 1)
        out = emit("slice", [emit("concatenate", [out, pad], {"axis": axis})],
                   {"slices": tuple(first if d == axis else None for d in range(out.ndim))})
        out = reshape_to(out, out.shape[:axis] + (1,) + out.shape[axis + 1:])
    where = user_location()
    return emit("check", [out, ok], {
        "error": "IndexError",
        "message": f"index {indices[0][1]} is out of bounds for axis {indices[0][0]} with "
                   f"its run-time size\n  at {where}"})


def basic_getitem(x, key):
    if key == () and x.ndim == 0:
        return Tracer(x.atom, is_scalar=True)     # a 0-d array's x[()] is a NumPy scalar
    had_ellipsis = any(k is Ellipsis for k in key)
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{n_real} were indexed\n  at {user_location()}")
    if Ellipsis in key:
        i = key.index(Ellipsis)
        key = key[:i] + (slice(None),) * (x.ndim - n_real) + key[i + 1:]
    else:
        key = key + (slice(None),) * (x.ndim - n_real)
    slices, out_shape, axis, run_time_ints = [], [], 0, []
    for k in key:
        if k is None:
            out_shape.append(1)
            continue
        dim = x.shape[axis]
        if isinstance(k, slice):
            s = normalize_slice(k, dim)
            full = s == (0, dim, 1) or (s[0] == "raw" and k == slice(None))
            slices.append(None if full else s)
            out_shape.append(dim if full else None if s[0] == "raw" else slice_length(dim, *s))
        elif dim is None:
            i = operator.index(k)
            slices.append(("raw", i, i + 1 if i != -1 else None, 1))
            run_time_ints.append((axis, i))
        else:
            i = operator.index(k)
            if not -dim <= i < dim:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {dim}\n"
                                 f"  at {user_location()}")
            i %= dim
            slices.append((i, i + 1, 1))
        axis += 1
    out = x
    if any(s is not None for s in slices):
        out = emit("slice", [x], {"slices": tuple(slices)})
    if run_time_ints:
        out = _checked_run_time_ints(x, out, run_time_ints)
    if tuple(out_shape) != out.shape:
        out = emit("reshape", [out], {"shape": tuple(out_shape)})
    if out.ndim == 0 and any(isinstance(k, (int, np.integer)) for k in key) and \
            not had_ellipsis:   # x[..., 2] stays a 0-d array, as in NumPy
        out = Tracer(out.atom, is_scalar=True)
    elif out is x:
        out = Tracer(x.atom)
    return out
