"""How a traced function's results (or a print's arguments) reach Python: the graph
values that stand for them (``output_atoms``) and the Python objects NumPy's run has
for those values (``output_kinds``, ``handed_back``)."""
from __future__ import annotations

import collections

from dataclasses import dataclass

import numpy as np

from ..errors import unsupported
from .growing_lists import ROWS, GrowingList, numbers_of_mixed_kinds
from .python_lists import ComputedList, ListTracer, decline_made
from .tracer import (KIND_ARRAY, KIND_NONE, KIND_PYTHON, KIND_SCALAR, PYTHON_TYPES, Tracer,
                     maybe_none, to_atom)
from .traced_dicts import DictView


@dataclass
class OutputInfo:
    """How to hand a graph output back to Python as NumPy would have."""
    kind: str           # "array", "scalar" (NumPy scalar), "pyscalar" (weak -> Python), "static",
                        # "by_kind": the next graph output, an int8 KIND_*, says which at run time;
                        # "list": a list's rows; "items": a list's rows, then the kind of each
                        # item and a KIND_NONE flag where ``value`` says so
    value: object = None


def as_python(value, python_type):
    """A graph value as the Python number of ``python_type`` that one path of an `if` gave
    (the graph holds it in the paths' common dtype: 0.5 as 0.5+0j beside 1+2j)."""
    item = np.asarray(value).item()
    if isinstance(item, complex) and python_type is not complex:
        item = item.real
    return python_type(item)


def handed_back(value, kind):
    """A graph output as NumPy hands it back, by its ``kind`` (see ``output_kinds``)."""
    if isinstance(kind, tuple) and kind[0] == "items":
        # A list's rows and, for numbers of mixed kinds, each one's kind.
        rows, kinds = value
        if kinds is None:
            return handed_back(rows, ("list", kind[1]))
        if _is_table(kind[1]):
            return [handed_back((row, row_kinds), ("items", kind[1][1]))
                    for row, row_kinds in zip(np.asarray(rows), np.asarray(kinds))]
        return [np.asarray(v)[()] if k < KIND_PYTHON else as_python(v, PYTHON_TYPES[k - KIND_PYTHON])
                for v, k in zip(np.asarray(rows), np.asarray(kinds).tolist())]
    if isinstance(kind, tuple):         # ("list", what each item is): a list's rows
        rows, item = np.asarray(value), kind[1]
        if _is_table(item):             # (ROWS, what each number is): a list of lists
            return [handed_back(row, ("list", item[1])) for row in rows]
        if isinstance(item, tuple):     # ("tuple" or "list", each number's type or dtype)
            made = list if item[0] == "list" else tuple
            return [made(as_python(v, k) if isinstance(k, type) else np.asarray(v).astype(k)[()]
                         for v, k in zip(row, item[1:])) for row in rows]
        return rows.tolist() if isinstance(item, type) else list(rows)
    if kind == "array":
        return value if isinstance(value, np.ndarray) else np.asarray(value)
    if kind == "pyscalar":
        return np.asarray(value).item()
    if isinstance(kind, type):          # a Python number of this type
        return as_python(value, kind)
    return np.asarray(value)[()]


def with_assumed_keys(value, key=False):
    """``value`` (a result) with each dict key and set member that is made of traced
    values whose Python values the trace assumed (``Tracer.assumed``: they were hashed)
    made of those values, as NumPy's run holds them; the containers on the way to one are
    copies, the others are themselves. A key of other traced values is refused."""
    if isinstance(value, Tracer):
        if not key:
            return value
        if value.assumed is not None and value.ndim == 0 and \
                value.assumed[0] is value.carried_atom():
            return value.assumed[1]
        raise unsupported("returning a dict key or set member made of traced values",
                          fix="Return the values as a list or an array.")
    kind = type(value)
    if kind in (list, tuple):
        items = [with_assumed_keys(v, key) for v in value]
        return kind(items) if any(a is not b for a, b in zip(items, value)) else value
    if kind in (dict, collections.defaultdict, collections.OrderedDict, collections.Counter):
        items = [(with_assumed_keys(k, True), with_assumed_keys(v, key))
                 for k, v in value.items()]
        if all(a is k and b is v for (a, b), (k, v) in zip(items, value.items())):
            return value
        made = kind(value.default_factory) if kind is collections.defaultdict else kind()
        made.update(items)
        return made
    if kind in (set, frozenset):
        items = [with_assumed_keys(v, True) for v in value]
        return kind(items) if any(a is not b for a, b in zip(items, value)) else value
    return value


def _is_table(item):
    return isinstance(item, tuple) and item[:1] == (ROWS,)


def output_kinds(infos, outs):
    """Per output info, the value and what it is handed back as: ``(value, kind)`` with
    ``kind`` an ``OutputInfo.kind`` or, for a "by_kind" output that is a Python number at
    run time, that number's Python type (its flag, the next of ``outs``, says which)."""
    it = iter(outs)
    for info in infos:
        if info.kind == "static":
            # Text the function made from constants: a new array on every call, as NumPy's.
            yield (info.value.copy() if isinstance(info.value, np.ndarray) else info.value), \
                "static"
        elif info.kind == "by_kind":
            value, flag = next(it), int(np.asarray(next(it)))
            if flag == KIND_NONE:
                yield None, "static"
                continue
            yield value, ("array" if flag == KIND_ARRAY else "scalar" if flag == KIND_SCALAR
                          else PYTHON_TYPES[flag - KIND_PYTHON])
        elif info.kind == "list":
            yield next(it), ("list", info.value)
        elif info.kind == "items":
            item, by_kind, maybe_none_ = info.value
            rows = next(it)
            kinds = next(it) if by_kind else None
            if maybe_none_ and int(np.asarray(next(it))) == KIND_NONE:
                yield None, "static"
                continue
            yield (rows, kinds), ("items", item)
        else:
            yield next(it), info.kind


_LIST_FIX = ("Return np.asarray(x) for an array, or x[:] / list(x) outside the compiled "
             "function for the list itself.")


def _known_when_tracing(leaf):
    # A dtype, a scalar type, a name: the same on every call with this signature.
    return leaf is None or isinstance(leaf, (str, bool, int, float, complex, np.dtype, type))


def output_atoms(leaves, verb="returning", static=_known_when_tracing):
    """The graph values standing for the leaves of a result (``tree.flatten``'s), and an
    ``OutputInfo`` per leaf saying how to hand them back; ``static(leaf)``: the leaf is
    handed back as itself. ``verb`` says what the function does with them, for messages."""
    atoms, info = [], []
    for leaf in leaves:
        if isinstance(leaf, GrowingList):
            kind_rows = object.__getattribute__(leaf, "kind_rows")
            by_kind = numbers_of_mixed_kinds(leaf.item)
            if by_kind and kind_rows is None:
                decline_made(leaf)
                raise unsupported(f"{verb} a list whose items are Python numbers or "
                                  "NumPy scalars as the data choose",
                                  fix="Append values of one kind (float(v), or "
                                      "np.float64(v)), or return np.array(x).")
            # Handed back as the Python list of its rows' items, as NumPy's run has it.
            atoms.append(leaf.carried_atom())
            if not by_kind and not maybe_none(leaf):
                info.append(OutputInfo("list", leaf.item[2]))
                continue
            # Each item's kind, and whether the list is None, as the data choose.
            if by_kind:
                atoms.append(kind_rows.atom)
            if maybe_none(leaf):
                atoms.append(leaf.kind_flag)
            info.append(OutputInfo("items", (leaf.item[2], by_kind, maybe_none(leaf))))
            continue
        if isinstance(leaf, ComputedList):      # built by the function: so too
            atoms.append(leaf.atom)
            item = leaf.element or ("scalar" if leaf.ndim == 1 else "array")
            info.append(OutputInfo("list", item))
            continue
        if isinstance(leaf, DictView):
            raise unsupported(f"{verb} dict.keys(), .values() or .items() of a dict "
                              "keyed by traced values",
                              fix="Return list(d.keys()) or the dict itself.")
        if isinstance(leaf, ListTracer):
            # The caller's own list object (or a list of run-time length), which a
            # graph output cannot be.
            decline_made(leaf)
            raise unsupported(f"{verb} {type(leaf).NOUN}", fix=_LIST_FIX)
        if isinstance(leaf, Tracer) and leaf.choice is not None:
            raise leaf.choice.error(
                f"{verb} a value whose rank the data choose: {leaf.choice.message}. Give it "
                f"one rank on every path (np.float64(...) or x.item() for one number, or an "
                f"array of shape (1,)).")
        if isinstance(leaf, Tracer) and leaf.kind_flag is not None:
            atoms += [leaf.bound_atom(), leaf.kind_flag]
            # value: whether it may be None (no tensor stands for that).
            info.append(OutputInfo("by_kind", maybe_none(leaf)))
        elif isinstance(leaf, Tracer):
            atoms.append(leaf.atom)
            kind = "pyscalar" if leaf.type.weak else ("scalar" if leaf.is_scalar else "array")
            info.append(OutputInfo(kind))
        elif static(leaf) or (isinstance(leaf, np.ndarray) and leaf.dtype.kind in "US"):
            info.append(OutputInfo("static", leaf))
        elif isinstance(leaf, (collections.deque, set, frozenset)):
            # A container handed back as itself holds values only the graph computes.
            if not any(isinstance(v, Tracer) for v in leaf):
                info.append(OutputInfo("static", leaf))
                continue
            raise unsupported(f"{verb} a {type(leaf).__name__} that holds traced values",
                              fix=f"Return list(x) (or sorted(x)), and make the "
                                  f"{type(leaf).__name__} outside the compiled function.")
        else:
            atom = to_atom(leaf)
            atoms.append(atom)
            info.append(OutputInfo("scalar" if isinstance(leaf, np.generic) else "array"))
    return atoms, info


