"""Integer ranges of loop counters, and the index checks they make redundant.

``a[i - 1]`` in ``for i in range(1, n)`` traces as NumPy's indexing rules ask:
wrap a negative index (``i - 1 < 0``: add ``n``), check the bounds, raise
``IndexError`` otherwise. Run once, that is nothing; run in a loop body, it is
a dozen scalar ops and a check flag carried through every iteration (a fifth
of a 10,000-step recurrence's time under XLA). Yet the loop itself says
``1 <= i < n``.

``bound_loop_counters`` finds each ``while`` counter (carried, stepped by a
literal, compared with a known bound in the loop's condition), gives it its
range inside the body, carries ranges through scalar integer arithmetic (and
through float arithmetic on integers the float holds exactly: the range checks
of Python int arithmetic on the loop index), and replaces the comparisons the
ranges decide with literals. What they feed then
simplifies: ``where`` on a literal picks its branch, a ``check`` of a literal
``True`` passes its value through, all-literal arithmetic folds, and
``gather_nd`` from ``arange`` at an index known to be in range is the index.
Only proven facts are used; anything else stays as traced.
"""
from __future__ import annotations

import numpy as np

from ..ir import Eqn, Literal, Var, map_subgraphs
from ..ops import OPS, OpTable
from .fold import as_literal, folded
from .rewrite import PassRules, rewrite_eqns

_COMPARE = {"less": lambda a, b: _lt(a, b), "greater": lambda a, b: _lt(b, a),
            "less_equal": lambda a, b: _le(a, b), "greater_equal": lambda a, b: _le(b, a)}


def _lt(a, b):
    """True/False when the ranges decide ``a < b``, else None."""
    if a[1] < b[0]:
        return True
    if a[0] >= b[1]:
        return False
    return None


def _le(a, b):
    if a[1] <= b[0]:
        return True
    if a[0] > b[1]:
        return False
    return None


def _is_int(atom):
    return atom.type.dtype.kind in "iu" and atom.type.size == 1


def _is_real(atom):
    return atom.type.dtype.kind in "iuf" and atom.type.size == 1


def _range_of(atom, ranges):
    if isinstance(atom, Literal):
        if _is_real(atom) and np.asarray(atom.value).size == 1:
            v = np.asarray(atom.value).reshape(()).item()
            return (v, v) if np.isfinite(v) else None
        return None
    return ranges.get(atom)


def _integral(r):
    return all(isinstance(v, int) or float(v).is_integer() for v in r)


def _fits(r, dtype):
    """``r`` if every integer in it is exact in ``dtype``, else None."""
    if r is None:
        return None
    if dtype.kind == "f":
        exact = 2 ** (np.finfo(dtype).nmant + 1)
        return r if -exact <= r[0] and r[1] <= exact else None
    info = np.iinfo(dtype)
    return r if info.min <= r[0] and r[1] <= info.max else None


# Op -> ``rule(input ranges, eqn)``: the range of its one-element result from its inputs'
# (each a range of integers), else None.
_RANGES = OpTable()


def _range_rule(*names):
    def wrap(fn):
        for name in names:
            _RANGES[name] = fn
        return fn
    return wrap


_range_rule("add")(lambda rs, eqn: (rs[0][0] + rs[1][0], rs[0][1] + rs[1][1]))
_range_rule("subtract")(lambda rs, eqn: (rs[0][0] - rs[1][1], rs[0][1] - rs[1][0]))
_range_rule("negative")(lambda rs, eqn: (-rs[0][1], -rs[0][0]))
_range_rule("convert", "reshape")(lambda rs, eqn: rs[0])
_range_rule("concatenate")(lambda rs, eqn: rs[0] if len(rs) == 1 else None)


@_range_rule("absolute")
def _absolute_range(rs, eqn):
    lo, hi = rs[0]
    return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))


@_range_rule("multiply")
def _product_range(rs, eqn):
    products = [a * b for a in rs[0] for b in rs[1]]
    return min(products), max(products)


def _arith_range(eqn, ranges):
    """Range of a one-element integer result, from its inputs' ranges, else None.

    A float result gets a range only while it holds integers its dtype represents
    exactly (an int converted to float64 and squared, say: the range checks of
    Python int arithmetic), where float arithmetic is exact.
    """
    out = eqn.outputs[0]
    if not _is_real(out):
        return None
    rs = [_range_of(a, ranges) for a in eqn.inputs]
    if eqn.op.name == "where":
        if rs[1] is None or rs[2] is None:
            return None
        return _fits((min(rs[1][0], rs[2][0]), max(rs[1][1], rs[2][1])), out.type.dtype)
    rule = _RANGES.get(eqn.op)
    if rule is None or any(r is None or not _integral(r) for r in rs):
        return None
    r = rule(rs, eqn)
    return None if r is None else _fits(r, out.type.dtype)


def _counter_ranges(eqn, ranges):
    """{body input: range} for the loop's counters: carried values the body steps by a
    nonzero literal and the condition bounds in the stepping direction."""
    n, cond, body = eqn.params["n_carried"], eqn.params["cond"], eqn.params["body"]
    outer = [_range_of(a, ranges) for a in eqn.inputs]
    cond_ranges = {v: r for v, r in zip(cond.inputs[n:], outer[n:]) if r is not None}
    steps = loop_steps(body, n)
    found = {}
    for k, step in steps.items():
        if outer[k] is None:
            continue
        bound = _cond_bound(cond, cond.inputs[k], step > 0, cond_ranges)
        if bound is None:
            continue
        r = (outer[k][0], bound) if step > 0 else (bound, outer[k][1])
        info = np.iinfo(body.inputs[k].type.dtype)
        if r[0] <= r[1] and info.min <= r[0] - abs(step) and r[1] + abs(step) <= info.max:
            found[body.inputs[k]] = r
    return found


def loop_steps(body, n):
    """{carried position: literal step} for outputs ``add(input, literal)``."""
    made = {e.outputs[0]: e for e in body.eqns if e.op.name == "add" and len(e.outputs) == 1}
    steps = {}
    for k in range(n):
        e = made.get(body.outputs[k])
        if e is None or not _is_int(body.inputs[k]) or body.inputs[k].type.shape != ():
            continue
        a, b = e.inputs
        other = b if a is body.inputs[k] else a if b is body.inputs[k] else None
        r = _range_of(other, {}) if other is not None else None
        if r is not None and r[0] != 0:
            steps[k] = r[0]
    return steps


def _cond_bound(cond, counter, rising, ranges):
    """The counter's last value inside the body (highest if rising, lowest if not), as the
    condition's comparison of it with a known bound proves; None if it does not."""
    made = {v: e for e in cond.eqns for v in e.outputs}
    pending, bounds = [cond.outputs[0]], []
    while pending:
        e = made.get(pending.pop())
        if e is None:
            continue
        if e.op.name in ("bitwise_and", "logical_and"):
            pending.extend(a for a in e.inputs if isinstance(a, Var))
            continue
        if e.op.name not in _COMPARE:
            continue
        a, b = e.inputs
        name = e.op.name
        if b is counter and a is not counter:       # N > i is i < N
            a, b = b, a
            name = {"less": "greater", "greater": "less", "less_equal": "greater_equal",
                    "greater_equal": "less_equal"}[name]
        if a is not counter:
            continue
        r = _range_of(b, ranges)
        if r is None:
            continue
        if rising and name == "less":
            bounds.append(r[1] - 1)
        elif rising and name == "less_equal":
            bounds.append(r[1])
        elif not rising and name == "greater":
            bounds.append(r[0] + 1)
        elif not rising and name == "greater_equal":
            bounds.append(r[0])
    if not bounds:
        return None
    return min(bounds) if rising else max(bounds)


def _is_arange(literal):
    v = np.asarray(literal.value)
    return v.ndim == 1 and v.dtype.kind in "iu" and np.array_equal(v, np.arange(v.shape[0]))


def _kept(eqn, rw):
    """``eqn`` as it stays, folded where its inputs are all literals (and it has one
    output)."""
    if len(eqn.outputs) == 1 and folded(eqn, rw) is not None:
        return []
    if len(eqn.outputs) == 1:
        r = _arith_range(eqn, rw.state)
        if r is not None:
            rw.state[eqn.outputs[0]] = r
    return [eqn]


# ``bound_loop_counters``'s rules; ``rw.state``: {var: its range (lowest, highest)}. An
# equation a rule keeps gets the range its result has (``_RANGES``).
_BOUND = PassRules(default=_kept)


@_BOUND.register(*_COMPARE)
def _decided(eqn, rw):
    out = eqn.outputs[0]
    if out.type.shape == ():
        a, b = (_range_of(x, rw.state) for x in eqn.inputs)
        decided = _COMPARE[eqn.op.name](a, b) if a is not None and b is not None else None
        if decided is not None:
            rw.rename(eqn.outputs, [as_literal(np.bool_(decided), out)])
            return []
    return _kept(eqn, rw)


@_BOUND.register("where")
def _chosen(eqn, rw):
    if isinstance(eqn.inputs[0], Literal) and eqn.inputs[0].type.shape == ():
        chosen = eqn.inputs[1] if bool(np.asarray(eqn.inputs[0].value)) else eqn.inputs[2]
        if isinstance(chosen, Var) and chosen.type == eqn.outputs[0].type:
            rw.rename(eqn.outputs, [chosen])
            return []
    return _kept(eqn, rw)


@_BOUND.register("check")
def _passed(eqn, rw):
    if isinstance(eqn.inputs[1], Literal) and bool(np.all(eqn.inputs[1].value)) and \
            eqn.inputs[0].type == eqn.outputs[0].type:
        rw.rename(eqn.outputs, [eqn.inputs[0]])
        return []
    return _kept(eqn, rw)


@_BOUND.register("gather_nd")
def _index_of_arange(eqn, rw):
    out = eqn.outputs[0]
    if isinstance(eqn.inputs[0], Literal) and _is_arange(eqn.inputs[0]):
        idx = eqn.inputs[1]
        r = _range_of(idx, rw.state)
        if r is not None and idx.type.shape == (1,) and idx.type.dtype == out.type.dtype and \
                0 <= r[0] and r[1] < eqn.inputs[0].type.shape[0]:
            eqn = Eqn(OPS["reshape"], (idx,), {"shape": ()}, (out,), eqn.source_info)
    return _kept(eqn, rw)


@_BOUND.register("while", subgraphs=True)
def _bound_while(eqn, rw):
    inside = _counter_ranges(eqn, rw.state)
    n, body = eqn.params["n_carried"], eqn.params["body"]
    inside.update((v, r) for v, a in zip(body.inputs[n:], eqn.inputs[n:])
                  if (r := _range_of(a, rw.state)) is not None)
    return _kept(eqn.replace(params={**eqn.params, "body": _bound(body, inside)}), rw)


@_BOUND.register("cond", subgraphs=True)
def _bound_cond(eqn, rw):
    known = [_range_of(a, rw.state) for a in eqn.inputs[1:]]   # what the branches read
    return _kept(map_subgraphs(eqn, lambda g: _bound(g, {
        v: r for v, r in zip(g.inputs, known) if r is not None})), rw)


def _bound(graph, ranges):
    return rewrite_eqns(graph, _BOUND, subgraphs=lambda g: _bound(g, {}), state=dict(ranges))


def bound_loop_counters(graph):
    return _bound(graph, {}).replace(stage="bound_loop_counters")


__all__ = ["bound_loop_counters"]
