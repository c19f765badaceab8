"""Source-to-source conversion of a user's function so its control flow can be traced.

``if``/``while``/``for``, conditional expressions, ``and``/``or``/``not`` and chained
comparisons become calls into ``control_flow``, which keeps Python semantics
for Python values and builds IR ``cond``/``while`` for traced ones. ``break``,
``continue`` and ``return`` inside them become flags first. Calls to the user's
own helper functions are converted the same way when they run. Line numbers
are kept, so errors point at the user's source.
"""
from __future__ import annotations

import ast
import contextvars
import copy
import functools
import inspect
import itertools
import os
import re
import sysconfig
import textwrap
import types

import gast

from . import (control_flow, growing_lists, list_buckets, namespace, numpy_random, printing,
               recursion, scipy_functions, side_effects, traced_dicts)
from .globals_read import first_use, note_function
from .namespace import traced_call
from .tail_calls import loop_tail_calls
from .tracer import HASHED

_CF = "_nptf__cf"
_CALL = "_nptf__call"
_SE = "_nptf__se"
_IX = "_nptf__ix"
_TD = "_nptf__td"
_LB = "_nptf__lb"
_TX = "_nptf__tx"
_GL = "_nptf__gl"
_counter = itertools.count()
_cache = {}
# Set for a trace of a function whose first trace used a traced value as a dict key:
# functions converted then key their empty dicts by traced values (``_KeyedDicts``).
KEYED_DICTS = contextvars.ContextVar("nptf_keyed_dicts", default=False)
_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard",
             "setdefault", "popitem"}
_SKIP_MODULES = ("numpy", "nptf", "tensorflow", "builtins", "gast", "scipy")


def _expr(src):
    return _unplaced(gast.parse(src).body[0].value)


def _stmts(src):
    return [_unplaced(s) for s in gast.parse(textwrap.dedent(src)).body]


def _unplaced(node):
    """``node`` without source positions: generated code takes the position of the user's
    code it stands in (``copy_location``, or its parent's through ``fix_missing_locations``),
    so the frame's line inside it is the user's line, not the function's first."""
    for n in gast.walk(node):
        for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(n, attr):
                delattr(n, attr)
    return node


def _name(id_, store=False):
    return gast.Name(id=id_, ctx=gast.Store() if store else gast.Load(), annotation=None,
                     type_comment=None)


# ---------------------------------------------------------------- analysis
def _bound_before_read(stmts, names):
    """The names of ``names`` that ``stmts`` bind by a plain assignment at their top level
    before any read of them (a read anywhere in a statement, nested functions included,
    counts) and before any statement that may leave the body (``continue``, ``break``,
    ``return``, ``raise``, ``yield``, in a handler too), which would keep the value from
    before: a loop body's value of such a name from before an iteration is never read or
    kept."""
    read, bound = set(), set()
    for stmt in stmts:
        if any(isinstance(n, (gast.Continue, gast.Break, gast.Return, gast.Raise,
                              gast.Yield, gast.YieldFrom)) for n in gast.walk(stmt)):
            break
        loads = {n.id for n in gast.walk(stmt) if isinstance(n, gast.Name) and
                 not isinstance(n.ctx, gast.Store)}
        if isinstance(stmt, gast.Assign):
            read |= {n.id for n in gast.walk(stmt.value) if isinstance(n, gast.Name)}
            read |= loads - {n.id for t in stmt.targets for n in gast.walk(t)
                             if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
            bound |= {n.id for t in stmt.targets for n in gast.walk(t)
                      if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)} - read
        else:
            read |= loads | {n.id for n in gast.walk(stmt) if isinstance(n, gast.Name) and
                             isinstance(stmt, gast.AugAssign)}
    return tuple(n for n in names if n in bound)


def _assigned(stmts, scope=None):
    """Names bound by these statements (not inside nested function definitions).

    ``scope``: the function's own and enclosing functions' variables. A container
    mutated in place is state only if it is one of them: a global list or dict is
    not passed through branches and loops (its changes are found after the trace,
    by ``side_effects``)."""
    names = []

    class V(gast.NodeVisitor):
        def visit_Name(self, node):
            if isinstance(node.ctx, gast.Store) and node.id not in names:
                names.append(node.id)


        def visit_FunctionDef(self, node):
            if not node.name.startswith("_nptf__") and node.name not in names:
                names.append(node.name)

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_Lambda(self, node):
            pass

        # Loop variables that are the keys of a container: ``k`` of ``for k in params``,
        # ``params.keys()`` or ``for k, v in params.items()``, to ``params``.
        keys_of = {}

        def visit_For(self, node):
            base = _keys_iterated(node)
            if base is None:
                return self.generic_visit(node)
            target = node.target.elts[0] if isinstance(node.target, gast.Tuple) else node.target
            before = self.keys_of.get(target.id)
            self.keys_of = {**self.keys_of, target.id: base}
            self.generic_visit(node)
            self.keys_of = {k: v for k, v in self.keys_of.items() if k != target.id}
            if before is not None:
                self.keys_of[target.id] = before

        def visit_Subscript(self, node):
            # ``model["w"] -= lr * g``: an item of a dict (a string key: not an array)
            # rebound; the dict becomes state, so a compiled loop carries its items. So too
            # ``params[k] = params[k] - lr * g`` in ``for k in params:``.
            if isinstance(node.ctx, gast.Store) and isinstance(node.value, gast.Name) and \
                    (isinstance(node.slice, gast.Constant) and isinstance(node.slice.value, str)
                     or isinstance(node.slice, gast.Name) and
                     self.keys_of.get(node.slice.id) == node.value.id) \
                    and node.value.id not in names and (scope is None or node.value.id in scope):
                names.append(node.value.id)
            self.generic_visit(node)

        def visit_Call(self, node):
            # ``out.append(v)``: the container becomes state, so a compiled loop can
            # tell that its body grows a Python object and run in Python instead.
            f = node.func
            if isinstance(f, gast.Attribute) and isinstance(f.value, gast.Name) and \
                    f.attr in _MUTATORS and f.value.id not in names and \
                    (scope is None or f.value.id in scope):
                names.append(f.value.id)
            # ``history["loss"].append(v)``: a list a dict holds grows; the dict becomes
            # state, so a compiled loop can carry that list as it carries a list variable.
            if isinstance(f, gast.Attribute) and f.attr in _MUTATORS and \
                    isinstance(f.value, gast.Subscript) and isinstance(f.value.value, gast.Name) \
                    and isinstance(f.value.slice, gast.Constant) and \
                    isinstance(f.value.slice.value, str) and f.value.value.id not in names and \
                    (scope is None or f.value.value.id in scope):
                names.append(f.value.value.id)
            self.generic_visit(node)

    for s in stmts:
        V().visit(s)
    return [n for n in names if not n.startswith("_nptf__") or n.startswith(("_nptf__brk",
                                                                              "_nptf__cnt",
                                                                              "_nptf__ret",
                                                                              "_nptf__tail",
                                                                              "_nptf__val"))]


def _keys_iterated(loop):
    """The name of the container whose keys the ``for`` statement ``loop`` iterates (``for
    k in d``, ``for k in d.keys()``, ``for k, v in d.items()``), else None."""
    it, target = loop.iter, loop.target
    if isinstance(it, gast.Call) and isinstance(it.func, gast.Attribute) and \
            not it.args and not it.keywords and isinstance(it.func.value, gast.Name):
        if it.func.attr == "keys" and isinstance(target, gast.Name):
            return it.func.value.id
        if it.func.attr == "items" and isinstance(target, gast.Tuple) and \
                len(target.elts) == 2 and isinstance(target.elts[0], gast.Name):
            return it.func.value.id
        return None
    if isinstance(it, gast.Name) and isinstance(target, gast.Name):
        return it.id
    return None


def _item_write_bases(stmts, scope, state):
    """Variables whose items these statements write (``dp[i] = v``, ``d[i][j] += 1``), not
    in nested functions, of the function's scope and not already the statement's state:
    where they hold Python lists, a graph loop or branch carries their items."""
    found = []
    stack = list(stmts)
    while stack:
        node = stack.pop(0)
        if isinstance(node, (gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)) or \
                isinstance(node, gast.FunctionDef) and not node.name.startswith("_nptf__"):
            continue        # the user's own functions; the converted code's are looked into
        targets = list(node.targets) if isinstance(node, gast.Assign) else \
            [node.target] if isinstance(node, gast.AugAssign) else []
        while targets:
            t = targets.pop()
            if isinstance(t, (gast.Tuple, gast.List)):
                targets.extend(t.elts)
                continue
            if not isinstance(t, gast.Subscript):
                continue
            base = t.value
            while isinstance(base, gast.Subscript):
                base = base.value
            if isinstance(base, gast.Name) and base.id in scope and base.id not in state and \
                    not base.id.startswith("_nptf__") and base.id not in found:
                found.append(base.id)
        stack.extend(gast.iter_child_nodes(node))
    return found


def _local_names(fdef):
    """Parameters and names bound anywhere in ``fdef``'s own body (not in functions,
    classes or lambdas defined in it, whose names it binds)."""
    args = fdef.args
    names = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs +
             [args.vararg, args.kwarg] if isinstance(a, gast.Name)}
    stack = list(fdef.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, gast.Lambda):
            continue
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            names.add(node.id)
        elif isinstance(node, (gast.Import, gast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        stack.extend(gast.iter_child_nodes(node))
    return names


def _parameters(fdef):
    """The names of ``fdef``'s parameters."""
    args = fdef.args
    return {a.id for a in args.posonlyargs + args.args + args.kwonlyargs +
            [args.vararg, args.kwarg] if isinstance(a, gast.Name)}


def _contains(node, kinds, cross_loops=False, cross_functions=False):
    for child in gast.iter_child_nodes(node):
        if isinstance(child, kinds):
            return True
        if isinstance(child, (gast.FunctionDef, gast.Lambda)) and not cross_functions:
            continue
        if isinstance(child, (gast.For, gast.While)) and not cross_loops:
            # A jump in a loop's ``else`` block belongs to the loop around it.
            if any(isinstance(s, kinds) or _contains(s, kinds, cross_loops, cross_functions)
                   for s in child.orelse):
                return True
            continue
        if _contains(child, kinds, cross_loops, cross_functions):
            return True
    return False


def _rebinds_outside(fdef, freevars):
    """Whether a function defined in ``fdef`` declares ``nonlocal`` a variable of a function
    around ``fdef`` (one of its ``freevars``): the converted ``fdef`` holds copies of
    those variables' cells, which would take the rebinding instead."""
    return any(isinstance(node, gast.Nonlocal) and set(node.names) & set(freevars)
               for node in gast.walk(fdef))


def _finally_after_return(fdef):
    """Whether a ``finally`` block of ``fdef`` does something after a ``return`` in its
    ``try``: Python runs it after the returned object is chosen (a write there reaches
    that object), which the return flag, a value taken at the ``return``, does not
    follow."""
    for node in gast.walk(fdef):
        if isinstance(node, gast.Try) and \
                not all(isinstance(s, gast.Pass) for s in node.finalbody) and \
                any(isinstance(s, gast.Return) or _contains(s, gast.Return, cross_loops=True)
                    for s in node.body + node.handlers + node.orelse):
            return True
    return False


# ------------------------------------------------------ jumps -> flags
# Statements whose blocks a ``return`` may sit in, which then leaves a converted loop or
# branch, or needs the flags that say the rest of the function does not run.
_COMPOUND = (gast.If, gast.For, gast.While, gast.Try, gast.With)
class _Jumps:
    """Rewrite break/continue/return inside control flow into assignments to flags."""

    def __init__(self):
        self.uses_return = False

    def function(self, fdef):
        if not any(_contains(s, gast.Return, cross_loops=True) for s in fdef.body
                   if isinstance(s, _COMPOUND)):
            fdef.body = self.block(fdef.body, [])
            return
        self.uses_return = True
        if not isinstance(fdef.body[-1], (gast.Return, gast.Raise)):
            # Falling off the end returns None: on the paths that leave the loops or
            # branches without returning, the function's value is None, not the value
            # other paths return.
            fdef.body = fdef.body + [gast.Return(value=None)]
        body = self.block(fdef.body, ["_nptf__ret"])
        fdef.body = _stmts(f"_nptf__ret = False\n_nptf__val = {_CF}.Undefined('return value', 'a return inside a loop or if')") + \
            body + _stmts("return _nptf__val")

    def block(self, stmts, flags, loop=None):
        out = []
        for i, s in enumerate(stmts):
            new, jumps = self.stmt(s, flags, loop)
            out.extend(new)
            if jumps and i + 1 < len(stmts):
                rest = self.block(stmts[i + 1:], flags, loop)
                guard = " and ".join(f"not {f}" for f in jumps)
                g = _stmts(f"if {guard}:\n    pass")[0]
                # Messages about this `if` point at the statement that jumps.
                for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                    if hasattr(s, attr):
                        setattr(g, attr, getattr(s, attr))
                g.body = rest
                out.append(g)
                break
        return out

    def stmt(self, s, flags, loop):
        """Rewritten statement(s) and the flags it may set."""
        if isinstance(s, gast.Return) and "_nptf__ret" in flags:
            value = s.value or _expr("None")
            assign = _stmts("_nptf__val = None\n_nptf__ret = True")
            assign[0].value = value
            return assign, ["_nptf__ret"]
        if isinstance(s, gast.Break) and loop is not None:
            return _stmts(f"{loop[0]} = True"), [loop[0]]
        if isinstance(s, gast.Continue) and loop is not None:
            return _stmts(f"{loop[1]} = True"), [loop[1]]
        if isinstance(s, gast.If):
            found = self._flags_in(s, flags, loop)
            s.body = self.block(s.body, flags, loop) or [gast.Pass()]
            s.orelse = self.block(s.orelse, flags, loop)
            return [s], found
        if isinstance(s, (gast.While, gast.For)) and not s.orelse:
            return self.loop(s, flags)
        if isinstance(s, (gast.Try, gast.With)):
            # A jump inside ``try``/``with`` leaves the loop or function the blocks are
            # in: the blocks take the flags as an ``if``'s branches do, and the
            # statements after the jump run under ``if not flag``.
            found = self._flags_in(s, flags, loop)
            holder = gast.If(test=gast.Constant(value=True, kind=None), body=s.body, orelse=[])
            in_body = self._flags_in(holder, flags, loop)
            s.body = self.block(s.body, flags, loop) or [gast.Pass()]
            if isinstance(s, gast.Try):
                for handler in s.handlers:
                    handler.body = self.block(handler.body, flags, loop) or [gast.Pass()]
                s.orelse = self.block(s.orelse, flags, loop)
                if s.orelse and in_body:
                    # Python runs a `try`'s `else` only where its body ran to the end.
                    guard = _stmts("if " + " and ".join(f"not {f}" for f in in_body) +
                                   ":\n    pass")[0]
                    guard.body = s.orelse
                    s.orelse = [guard]
                s.finalbody = self.block(s.finalbody, flags, loop)
            return [s], found
        if isinstance(s, (gast.While, gast.For)):
            return self.loop_else(s, flags, loop)
        return [s], []

    def loop_else(self, s, flags, loop):
        """``for ...: ... else: ...`` (or ``while``): the ``else`` block runs where the loop
        ends without a ``break`` (or a ``return``), an ``if`` on the flags after the loop.
        A jump in the ``else`` block belongs to the loop around this one."""
        orelse, s.orelse = s.orelse, []
        new, found = self.loop(s, flags)
        stops = getattr(s, "nptf_stops", [])
        test = " and ".join(f"not {f}" for f in stops) or "True"
        after = _stmts(f"if {test}:\n    pass")[0]
        for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(orelse[0], attr):
                setattr(after, attr, getattr(orelse[0], attr))
        after.body = orelse
        rest, jumps = self.stmt(after, flags, loop)
        return new + rest, list(dict.fromkeys(found + jumps))

    def _flags_in(self, s, flags, loop):
        found = []
        if "_nptf__ret" in flags and _contains(s, gast.Return, cross_loops=True):
            found.append("_nptf__ret")
        if loop is not None:
            if _contains(s, gast.Break):
                found.append(loop[0])
            if _contains(s, gast.Continue):
                found.append(loop[1])
        return found

    def loop(self, s, flags):
        k = next(_counter)
        brk, cnt = f"_nptf__brk_{k}", f"_nptf__cnt_{k}"
        has_break = _contains(s, gast.Break)
        has_continue = _contains(s, gast.Continue)
        has_return = "_nptf__ret" in flags and _contains(s, gast.Return, cross_loops=True)
        body = self.block(s.body, flags, (brk, cnt))
        if has_continue:
            body = _stmts(f"{cnt} = False") + body
        s.body = body
        stops = ([brk] if has_break else []) + (["_nptf__ret"] if has_return else [])
        s.nptf_stops = stops
        if isinstance(s, gast.While) and stops:
            s.test = _truth_only(gast.BoolOp(op=gast.And(), values=[
                _expr(" and ".join(f"not {f}" for f in stops)), s.test]))
        before = _stmts(f"{brk} = False") if has_break else []
        return before + [s], (["_nptf__ret"] if has_return else [])


# -------------------------------------------------- control flow -> calls
def _simple_target(target):
    """A comprehension target a lambda's parameters can bind: a name or a flat tuple of
    names."""
    if isinstance(target, gast.Name):
        return True
    return isinstance(target, gast.Tuple) and target.elts and \
        all(isinstance(e, gast.Name) for e in target.elts)


def _one_generator(node):
    """``[elt for a in A if c for b in B(a) if d]`` as ``[elt for (a, b) in
    nested_bindings(lambda: [(a, b) for a in A if static_filter(c) for b in B(a) if
    static_filter(d)]) if c and d]``: one generator over the bindings Python's loops make,
    whose conditions on traced values (``if se[di, dj]``) the converted comprehension
    decides as appends the data choose; conditions Python decides filter the bindings
    already (``nested_bindings``). Unchanged where a target is not a name or a flat tuple
    of names, or a name repeats."""
    gens = node.generators
    if not any(g.ifs for g in gens) or \
            any(g.is_async or not _simple_target(g.target) for g in gens) or \
            any(isinstance(n, (gast.Call, gast.NamedExpr, gast.Lambda)) for g in gens
                for c in g.ifs for n in gast.walk(c)):
        # A condition that calls (``rng.random() < p``) would run twice, listing the
        # bindings and deciding them: left to Python.
        return node
    names = [n.id for g in gens for n in ([g.target] if isinstance(g.target, gast.Name)
                                          else g.target.elts)]
    if len(set(names)) != len(names):
        return node
    conds = [c for g in gens for c in g.ifs]
    inner = gast.ListComp(
        elt=gast.Tuple(elts=[_name(n) for n in names], ctx=gast.Load()),
        generators=[gast.comprehension(
            target=copy.deepcopy(g.target), iter=g.iter,
            ifs=[_call(f"{_CF}.static_filter", copy.deepcopy(c)) for c in g.ifs],
            is_async=0) for g in gens])
    inner.nptf_bindings = True
    bindings = _call(f"{_CF}.nested_bindings", gast.Lambda(
        args=gast.arguments(args=[], posonlyargs=[], vararg=None, kwonlyargs=[],
                            kw_defaults=[], kwarg=None, defaults=[]), body=inner))
    flat = gast.ListComp(elt=node.elt, generators=[gast.comprehension(
        target=gast.Tuple(elts=[_name(n, store=True) for n in names], ctx=gast.Store()),
        iter=bindings, ifs=conds, is_async=0)])
    return gast.fix_missing_locations(gast.copy_location(flat, node))


def _call(func, *args):
    call = _expr(f"{func}()")
    call.args = list(args)
    return call


def _truth_only(test):
    """Marks ``test`` as a place where only an expression's truth counts (an ``if`` or
    ``while`` test, ``not``'s operand, a comprehension's filter): there ``a and b`` may be
    a bool whatever its operands' types, which a value would not allow."""
    if isinstance(test, (gast.BoolOp, gast.Compare)):
        test.nptf_truth = True
    return test


# Builtins whose one generator-expression argument is made a list comprehension.
_REDUCING = frozenset({"sum", "any", "all", "min", "max"})


def _iteration_calls(it):
    """``range(...)``, ``reversed(range(...))``, ``enumerate(...)`` or ``zip(...)`` as the
    iterable of a ``for`` or a comprehension (and a ``zip(...)`` that ``enumerate`` takes)
    as control_flow's versions, which loop over traced lengths."""
    if isinstance(it, gast.Call) and isinstance(it.func, gast.Name) and \
            it.func.id == "reversed" and len(it.args) == 1 and \
            isinstance(it.args[0], gast.Call) and isinstance(it.args[0].func, gast.Name) and \
            it.args[0].func.id == "range":
        # ``reversed(range(n))``: a range of traced bounds, backwards.
        it.func = _expr(f"{_CF}.reversed_")
        it = it.args[0]
    if isinstance(it, gast.Call) and isinstance(it.func, gast.Name) and \
            it.func.id in ("range", "enumerate", "zip"):
        if it.func.id == "enumerate" and it.args:
            inner = it.args[0]
            if isinstance(inner, gast.Call) and isinstance(inner.func, gast.Name) and \
                    inner.func.id == "zip":
                inner.func = _expr(f"{_CF}.zip_")
        it.func = _expr(f"{_CF}.{it.func.id}_")


class _TryProbes(gast.NodeTransformer):
    """``try: S1; S2 except E: H`` whose body is simple statements (assignments, calls,
    ``return``), without an ``else`` block or a handler that reads the exception, as

        try:
            def _nptf__probe_1(<names S1 binds>): S1
            _nptf__raised_1 = raised_handler(_nptf__probe_1, (<their values>,), (E,))
            if _nptf__raised_1 == 1:
                H
            else:
                S1
                ... S2 alike, inside
        except E:
            H

    ``raised_handler`` says which handler an error the data raise in the statement would
    reach (0, a Python int, where none can: the `if` is Python's and nothing changes), so
    the graph takes the handler where NumPy's run would. The `try` stays around it for
    errors tracing itself raises."""

    _SIMPLE = (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Expr, gast.Return)

    def __init__(self, filename, line_offset):
        self.filename, self.line_offset = filename, line_offset
        self.count = 0

    def visit_FunctionDef(self, node):
        return node             # a function inside is rewritten when it is converted

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef

    def visit_Try(self, node):
        self.generic_visit(node)
        if not node.handlers or node.orelse or not node.body or \
                not all(isinstance(st, self._SIMPLE) for st in node.body) or \
                any(isinstance(n, (gast.Yield, gast.YieldFrom, gast.Await, gast.Nonlocal,
                                   gast.Global))
                    for st in node.body for n in gast.walk(st)) or \
                any(h.name is not None and any(
                    isinstance(n, gast.Name) and n.id == h.name.id
                    for st in h.body for n in gast.walk(st)) for h in node.handlers):
            return node
        types = gast.Tuple(elts=[copy.deepcopy(h.type) if h.type is not None else
                                 gast.Constant(value=None, kind=None) for h in node.handlers],
                           ctx=gast.Load())
        node.body = self._guarded(node.body, node.handlers, types)
        return node

    def _guarded(self, body, handlers, types):
        if not body:
            return []
        st, rest = body[0], body[1:]
        self.count += 1
        k = self.count
        names = _bound_by(st)
        where = f"{self.filename}:{getattr(st, 'lineno', 0) + self.line_offset}"
        probe = _stmts(f"def _nptf__probe_{k}({', '.join(names)}):\n    pass")[0]
        probe.body = [copy.deepcopy(st)]
        loads = ", ".join(f"{_CF}.ld(locals(), {n!r})" for n in names)
        ask = _stmts(f"_nptf__raised_{k} = {_CF}.raised_handler(_nptf__probe_{k}, "
                     f"({loads}{',' if len(names) == 1 else ''}), None, {where!r})")[0]
        ask.value.args[2] = copy.deepcopy(types)
        tests = [_expr(f"_nptf__raised_{k} == {i + 1}") for i in range(len(handlers))]
        chain = [st] + self._guarded(rest, handlers, types)
        for test, h in reversed(list(zip(tests, handlers))):
            chain = [gast.If(test=test, body=copy.deepcopy(h.body), orelse=chain)]
        for n in [probe, ask] + chain[:1]:
            gast.copy_location(n, st)
        gast.fix_missing_locations(probe)
        return [probe, ask] + chain


def _bound_by(stmt):
    """The names a simple statement binds (its targets, walrus targets), not those of the
    comprehensions and lambdas inside it."""
    names = []

    def walk(n):
        if isinstance(n, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
                          gast.GeneratorExp)):
            return
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store) and n.id not in names:
            names.append(n.id)
        for child in gast.iter_child_nodes(n):
            walk(child)
    walk(stmt)
    return names


class _UnboundReads:
    """Reads of a local variable that a path may reach before any assignment to it (one
    assigned only under an `if` or inside a loop, read after it or on a later iteration)
    become ``_nptf__cf.rd(name)``: where the data leave it unassigned, Python raises
    UnboundLocalError at that read, which a copy (``last = t``) or an append would
    otherwise carry on unchecked. A variable bound on every path before the read (a
    definite-assignment walk of the statements) is read as it is, as is the receiver of
    an attribute, an index or a call and an operand of ``is`` (their own uses check)."""

    _SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda,
               gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
    _ENDS = (gast.Return, gast.Raise, gast.Break, gast.Continue)

    def __init__(self, fdef):
        self.locals = {n for n in _local_names(fdef) - _parameters(fdef)
                       if not n.startswith("_nptf__")}
        self.fdef = fdef

    def rewrite(self):
        if self.locals:
            self.block(self.fdef.body, frozenset())

    def block(self, stmts, bound):
        for st in stmts:
            bound = self.stmt(st, bound)
        return bound

    def _branch(self, stmts, bound):
        after = self.block(stmts, bound)
        # A path that leaves (return, raise, break, continue) binds nothing after the `if`.
        return None if stmts and isinstance(stmts[-1], self._ENDS) else after

    def stmt(self, st, bound):
        if isinstance(st, gast.If):
            self.expr(st, "test", bound)
            paths = [b for b in (self._branch(st.body, bound), self._branch(st.orelse, bound))
                     if b is not None]
            return frozenset.intersection(*paths) if paths else bound
        if isinstance(st, (gast.For, gast.AsyncFor)):
            self.expr(st, "iter", bound)
            self.block(st.body, bound | set(_bound_by(st.target)))
            self.block(st.orelse, bound)
            return bound
        if isinstance(st, gast.While):
            self.expr(st, "test", bound)
            self.block(st.body, bound)
            self.block(st.orelse, bound)
            return bound
        if isinstance(st, gast.Try):
            self.block(st.body, bound)
            for h in st.handlers:
                self.expr(h, "type", bound)
                self.block(h.body, bound | ({h.name.id} if isinstance(h.name, gast.Name)
                                            else set()))
            self.block(st.orelse, bound)
            self.block(st.finalbody, bound)
            return bound
        if isinstance(st, (gast.With, gast.AsyncWith)):
            for item in st.items:
                self.expr(item, "context_expr", bound)
                if item.optional_vars is not None:
                    bound = bound | set(_bound_by(item.optional_vars))
            return self.block(st.body, bound)
        if isinstance(st, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            return bound | {st.name}
        if isinstance(st, (gast.Import, gast.ImportFrom)):
            return bound | {(a.asname or a.name).split(".")[0] for a in st.names}
        if isinstance(st, gast.Delete):
            return bound - {t.id for t in st.targets if isinstance(t, gast.Name)}
        if isinstance(st, (gast.Assign, gast.AnnAssign, gast.AugAssign, gast.Expr,
                           gast.Return, gast.Raise, gast.Assert)):
            for field in ("value", "test", "msg", "exc", "cause"):
                self.expr(st, field, bound)
            for t in getattr(st, "targets", [getattr(st, "target", None)]):
                if t is not None and not isinstance(t, gast.Name):
                    # ``a[i] = v``, ``o.x = v``: the index and receiver are read.
                    self.expr_node(t, bound)
            return bound | set(_bound_by(st))
        return bound | set(_bound_by(st))

    def expr(self, node, field, bound):
        value = getattr(node, field, None)
        if isinstance(value, gast.AST):
            setattr(node, field, self._visit(value, bound))

    def expr_node(self, node, bound):
        for field, value in gast.iter_fields(node):
            if isinstance(value, gast.AST):
                setattr(node, field, self._visit(value, bound))
            elif isinstance(value, list):
                setattr(node, field, [self._visit(v, bound) if isinstance(v, gast.AST) else v
                                      for v in value])

    def _visit(self, node, bound):
        if isinstance(node, gast.Name):
            if isinstance(node.ctx, gast.Load) and node.id in self.locals and \
                    node.id not in bound:
                call = _expr(f"{_CF}.rd(None)")
                call.args = [node]
                return gast.copy_location(call, node)
            return node
        if isinstance(node, self._SCOPES):
            return node
        if isinstance(node, gast.Attribute) or isinstance(node, gast.Subscript):
            # The receiver's use checks (``Tracer.atom``, attributes of a maybe-unbound).
            if not isinstance(node.value, gast.Name):
                node.value = self._visit(node.value, bound)
            if isinstance(node, gast.Subscript):
                node.slice = self._visit(node.slice, bound)
            return node
        if isinstance(node, gast.Call):
            if not isinstance(node.func, gast.Name):
                node.func = self._visit(node.func, bound)
            node.args = [self._visit(a, bound) for a in node.args]
            for kw in node.keywords:
                kw.value = self._visit(kw.value, bound)
            return node
        if isinstance(node, gast.Compare) and any(isinstance(o, (gast.Is, gast.IsNot))
                                                  for o in node.ops):
            return node
        self.expr_node(node, bound)
        return node


class _ControlFlow(gast.NodeTransformer):
    def __init__(self, filename, line_offset, scope=None, shared=frozenset()):
        self.filename, self.line_offset = filename, line_offset
        self.scope = scope
        # Variables a nested function of the user's reads (``def above(v): return v > x``
        # with ``x`` rebound in the loop that calls it).
        self.shared = shared

    def where(self, node):
        return f"{self.filename}:{getattr(node, 'lineno', 0) + self.line_offset}"

    def _state(self, names):
        loads = ", ".join(f"{_CF}.ld(locals(), {n!r})" for n in names)
        return f"({loads}{',' if len(names) == 1 else ''})", \
            f"({', '.join(repr(n) for n in names)}{',' if len(names) == 1 else ''})"

    def _fn(self, name, params, body, returns, value=None):
        """``def name(*params): body; return (*returns,)`` (or ``return value``, an
        expression node)."""
        ret = f"return ({', '.join(returns)}{',' if len(returns) == 1 else ''})"
        shared = [p for p in params if p in self.shared]
        if not shared:
            fdef = _stmts(f"def {name}({', '.join(params)}):\n    {ret}")[0]
            fdef.body = list(body) + fdef.body
            if value is not None:
                fdef.body[-1].value = value
            return fdef
        # A variable of the statement that a nested function reads is that function's
        # too (a closure cell): the statement's value of it is put in the cell while its
        # body runs (traced once for a graph loop or a branch), so the nested function
        # reads that value, not the one from before the statement; the cell gets its
        # value back on leaving, and the statement's result rebinds it after.
        own = [f"_nptf__arg_{p}" if p in shared else p for p in params]
        enter = "\n".join(f"    _nptf__was_{p} = {_CF}.ld(locals(), {p!r})\n"
                          f"    {p} = _nptf__arg_{p}" for p in shared)
        leave = "\n".join(f"    {p} = _nptf__was_{p}" for p in shared)
        fdef = _stmts(f"def {name}({', '.join(own)}):\n    nonlocal {', '.join(shared)}\n"
                      f"{enter}\n    _nptf__out = ({', '.join(returns)}"
                      f"{',' if len(returns) == 1 else ''})\n{leave}\n    return _nptf__out")[0]
        at = 1 + 2 * len(shared)
        if value is not None:
            fdef.body[at].value = value
        fdef.body = fdef.body[:at] + list(body) + fdef.body[at:]
        return fdef

    def _bound_first(self, fn, stmts, names):
        """A statement that records on the loop body ``fn`` the names ``stmts`` bind before
        reading them (``_bound_before_read``)."""
        fresh = _bound_before_read(stmts, names)
        if not fresh:
            return []
        text = "(" + "".join(f"{n!r}, " for n in fresh) + ")"
        return [_stmts(f"{fn}.nptf_bound_first = {text}")[0]]

    def _item_writes(self, fns, stmts, names):
        """Statements that record on the functions ``fns`` the variables whose items
        ``stmts`` write (see ``_item_write_bases``)."""
        bases = _item_write_bases(stmts, self.scope, names)
        if not bases:
            return []
        text = "(" + "".join(f"{b!r}, " for b in bases) + ")"
        return [_stmts(f"{fn}.nptf_item_writes = {text}")[0] for fn in fns]

    def _assign(self, names, call):
        if not names:
            return gast.Expr(value=call)
        target = _expr(f"({', '.join(names)},)")
        for elt in target.elts:
            elt.ctx = gast.Store()
        target.ctx = gast.Store()
        return gast.Assign(targets=[target], value=call, type_comment=None)

    def visit_If(self, node):
        names = _assigned(node.body + node.orelse, self.scope)
        _truth_only(node.test)
        self.generic_visit(node)
        k = next(_counter)
        t = self._fn(f"_nptf__if_true_{k}", names, node.body, names)
        f = self._fn(f"_nptf__if_false_{k}", names, node.orelse or [gast.Pass()], names)
        state, labels = self._state(names)
        call = _expr(f"{_CF}.if_stmt(None, _nptf__if_true_{k}, _nptf__if_false_{k}, {state}, "
                     f"{labels}, {self.where(node)!r})")
        call.args[0] = node.test
        marks = self._item_writes([f"_nptf__if_true_{k}", f"_nptf__if_false_{k}"],
                                  node.body + node.orelse, names)
        return [t, f] + marks + [self._assign(names, call)]

    def visit_Raise(self, node):
        """``raise E(f"... {x}")``: ``exception_of(E, lambda: E(...))``, so that a message
        formatting a traced value stands for the error NumPy's run raises."""
        self.generic_visit(node)
        exc = node.exc
        if isinstance(exc, gast.Call) and (exc.args or exc.keywords):
            made = _expr(f"{_CF}.exception_of(None, lambda: None)")
            made.args[0] = exc.func
            made.args[1].body = exc
            node.exc = gast.copy_location(made, exc)
            gast.fix_missing_locations(node)
        return node

    def visit_Assert(self, node):
        """``assert test, msg``: Python's ``if not test: raise AssertionError(msg)``, so that
        a test on traced values is one the graph checks when it runs."""
        if not __debug__:
            return []
        error = _expr("AssertionError()")
        if node.msg is not None:
            error.args = [node.msg]
        raised = gast.Raise(exc=error, cause=None)
        test = gast.UnaryOp(op=gast.Not(), operand=node.test)
        branch = gast.If(test=test, body=[raised], orelse=[])
        for n in (raised, test, branch, error):
            gast.copy_location(n, node)
        gast.fix_missing_locations(branch)
        return self.visit_If(branch)

    def visit_While(self, node):
        if node.orelse:
            return self.generic_visit(node)
        names = _assigned(node.body, self.scope)
        _truth_only(node.test)
        k = next(_counter)
        fresh = self._bound_first(f"_nptf__while_body_{k}", node.body, names)
        self.generic_visit(node)
        cond = self._fn(f"_nptf__while_cond_{k}", names, [], [], value=node.test)
        body = self._fn(f"_nptf__while_body_{k}", names, node.body, names)
        state, labels = self._state(names)
        call = _expr(f"{_CF}.while_stmt(_nptf__while_cond_{k}, _nptf__while_body_{k}, {state}, "
                     f"{labels}, {self.where(node)!r})")
        marks = self._item_writes([f"_nptf__while_body_{k}"], node.body, names) + fresh
        return [cond, body] + marks + [self._assign(names, call)]

    def visit_For(self, node):
        if node.orelse:
            return self.generic_visit(node)
        it = node.iter
        _iteration_calls(it)
        target_names = _assigned([gast.Assign(targets=[node.target], value=_expr("0"),
                                              type_comment=None)])
        names = list(dict.fromkeys(target_names + _assigned(node.body, self.scope)))
        k = next(_counter)
        fresh = self._bound_first(f"_nptf__for_body_{k}", node.body,
                                  [n for n in names if n not in target_names])
        self.generic_visit(node)
        unpack = gast.Assign(targets=[node.target], value=_name("_nptf__item"), type_comment=None)
        body = self._fn(f"_nptf__for_body_{k}", ["_nptf__item"] + names, [unpack] + node.body, names)
        it = node.iter
        state, labels = self._state(names)
        stops = getattr(node, "nptf_stops", [])
        stop = f"lambda {', '.join(names)}: {_CF}.any_of({', '.join(stops)})" if stops else "None"
        call = _expr(f"{_CF}.for_stmt(None, _nptf__for_body_{k}, {state}, {labels}, "
                     f"{self.where(node)!r}, {stop})")
        call.args[0] = it
        marks = self._item_writes([f"_nptf__for_body_{k}"], node.body, names) + fresh
        return [body] + marks + [self._assign(names, call)]

    def visit_IfExp(self, node):
        _truth_only(node.test)
        self.generic_visit(node)
        call = _expr(f"{_CF}.if_exp(None, lambda: None, lambda: None, {self.where(node)!r})")
        call.args[0], call.args[1].body, call.args[2].body = node.test, node.body, node.orelse
        return call

    def visit_BoolOp(self, node):
        truth = getattr(node, "nptf_truth", False)
        if truth:
            for v in node.values:
                _truth_only(v)
        self.generic_visit(node)
        fn = ("and_" if isinstance(node.op, gast.And) else "or_") + ("test" if truth else "")
        call = _expr(f"{_CF}.{fn}(where={self.where(node)!r})")
        for v in node.values:
            lam = _expr("lambda: None")
            lam.body = v
            call.args.append(lam)
        return call

    def visit_UnaryOp(self, node):
        if isinstance(node.op, gast.Not):
            _truth_only(node.operand)
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            call = _expr(f"{_CF}.not_(None)")
            call.args[0] = node.operand
            return call
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1:
            return self._is_none(node)
        parts, left = [], node.left
        for op, right in zip(node.ops, node.comparators):
            parts.append(gast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        chain = gast.BoolOp(op=gast.And(), values=parts)
        chain.nptf_truth = getattr(node, "nptf_truth", False)
        return self.visit_BoolOp(chain)

    def _is_none(self, node):
        """``x is None`` / ``x is not None``: a variable may be None on some paths only
        when the graph runs (``best = None``, set under an `if` on the data). ``x in a``
        / ``x not in a``: for an array ``a``, a bool the data decide; ``a == b`` of
        tuples or lists of traced numbers, too."""
        op, (right,) = node.ops[0], node.comparators
        if isinstance(op, (gast.In, gast.NotIn)):
            call = _expr(f"{_CF}.contains(None, None)")
            call.args = [node.left, right]
            if isinstance(op, gast.NotIn):
                outer = _expr(f"{_CF}.not_(None)")
                outer.args[0] = call
                return outer
            return call
        if isinstance(op, (gast.Eq, gast.NotEq)):
            # ``(r, c) == goal``: tuples and lists of traced numbers, a traced bool.
            call = _expr(f"{_CF}.{'eq_' if isinstance(op, gast.Eq) else 'ne_'}(None, None)")
            call.args = [node.left, right]
            return call
        if not isinstance(op, (gast.Is, gast.IsNot)):
            return node
        none = [isinstance(x, gast.Constant) and x.value is None for x in (node.left, right)]
        if not any(none):
            return node
        call = _expr(f"{_CF}.is_none(None)")
        call.args[0] = right if none[0] else node.left
        if isinstance(op, gast.IsNot):
            outer = _expr(f"{_CF}.not_(None)")
            outer.args[0] = call
            return outer
        return call

    def visit_Call(self, node):
        if isinstance(node.func, gast.Name) and node.func.id == "next" and \
                len(node.args) == 2 and not node.keywords and \
                isinstance(node.args[0], gast.GeneratorExp):
            # ``next((int(i) for i in np.flatnonzero(z > 2)), None)``, the first item or a
            # default: Python's generator where Python can run it, else the items as a
            # list comprehension (a list the data grow), of which the first, or the default
            # where the data leave none.
            gen = node.args[0]
            call = _expr(f"{_CF}.next_(lambda: None, lambda: None, None)")
            call.args[0].body = self.visit_ListComp(gast.copy_location(
                gast.ListComp(elt=copy.deepcopy(gen.elt),
                              generators=copy.deepcopy(gen.generators)), gen))
            call.args[1].body = gen
            call.args[2] = self.visit(node.args[1])
            return gast.copy_location(call, node)
        if isinstance(node.func, gast.Name) and node.func.id in _REDUCING and node.args and \
                isinstance(node.args[0], gast.GeneratorExp) and \
                len(node.args) <= (2 if node.func.id == "sum" else 1):
            # ``sum(v * v for v in x if v > 0)``, ``min((d[i] for i in idx), default=0)``:
            # the items as a list comprehension (which a filter on traced values makes a
            # list the data grow); sum, min and max read every item of the generator
            # anyway (any and all, which stop at the first that decides, read the rest too).
            gen = node.args[0]
            node.args[0] = gast.copy_location(
                gast.ListComp(elt=gen.elt, generators=gen.generators), gen)
        if isinstance(node.func, gast.Name) and node.func.id == "list" and \
                len(node.args) == 1 and not node.keywords and \
                isinstance(node.args[0], gast.Call) and \
                isinstance(node.args[0].func, gast.Name) and \
                node.args[0].func.id in ("zip", "enumerate"):
            # ``list(zip(*np.nonzero(m)))``: as ``[t for t in zip(...)]``, whose loop runs
            # over arrays of a length known only at run time (a worklist of positions).
            comp = _expr("[_nptf__item for _nptf__item in None]")
            comp.generators[0].iter = node.args[0]
            return self.visit_ListComp(gast.copy_location(comp, node))
        self.generic_visit(node)
        if not (isinstance(node.func, gast.Attribute) and isinstance(node.func.value, gast.Name)
                  and node.func.value.id in (_CF, _TD, _LB, _TX, _GL)) and \
                not (isinstance(node.func, gast.Name) and node.func.id == _CALL):
            wrapped = _expr(f"{_CALL}(None)")
            wrapped.args[0] = node.func
            node.func = wrapped
        return node

    def visit_Set(self, node):
        """``{a, b}``: ``set([a, b])``, which ``called(set)`` takes (traced numbers make
        a ``TracedSet``)."""
        call = _expr("set(None)")
        call.args[0] = gast.List(elts=node.elts, ctx=gast.Load())
        return self.visit_Call(gast.copy_location(call, node))

    def visit_SetComp(self, node):
        """``{e for t in it if c}``: ``set([e for t in it if c])``."""
        call = _expr("set(None)")
        call.args[0] = gast.copy_location(
            gast.ListComp(elt=node.elt, generators=node.generators), node)
        return self.visit_Call(gast.copy_location(call, node))

    def visit_JoinedStr(self, node):
        """``f"a{x:.3f}"`` becomes ``printing.fstring("a", (x, -1, ".3f"))``: the string, or
        where ``x`` is traced, the text made when the graph runs (``printing.Text``)."""
        self.generic_visit(node)
        call = _expr(f"{_TX}.fstring()")
        for part in node.values:
            if isinstance(part, gast.FormattedValue):
                spec = part.format_spec if part.format_spec is not None else \
                    gast.Constant(value=None, kind=None)
                part = gast.Tuple(elts=[part.value, gast.Constant(value=part.conversion,
                                                                  kind=None), spec],
                                  ctx=gast.Load())
            call.args.append(part)
        return gast.copy_location(call, node)

    def visit_BinOp(self, node):
        """``"%.3f" % x`` (a string or an f-string on the left) becomes
        ``printing.percent("%.3f", x)``: text made when the graph runs where ``x`` is
        traced."""
        self.generic_visit(node)
        left = node.left
        if isinstance(node.op, gast.Mod) and (
                (isinstance(left, gast.Constant) and isinstance(left.value, str)) or
                (isinstance(left, gast.Call) and isinstance(left.func, gast.Attribute) and
                 isinstance(left.func.value, gast.Name) and left.func.value.id == _TX)):
            call = _expr(f"{_TX}.percent(None, None)")
            call.args = [left, node.right]
            return gast.copy_location(call, node)
        return node

    def visit_Try(self, node):
        """``try: body except E: handler``: the body runs ``inside_try`` (an error that
        comes up only when the graph runs makes the call run with NumPy, which takes the
        handler), and each handler first re-raises nptf's own errors, which say that a
        construct cannot be traced, not that the user's code failed."""
        self.generic_visit(node)
        if not node.handlers:
            return node
        for k, handler in enumerate(node.handlers):
            if handler.name is None:
                handler.name = _name(f"_nptf__exc_{k}", store=True)
            guard = _stmts(f"{_CF}.reraise_own({handler.name.id})")
            handler.body = guard + handler.body
        with_stmt = _stmts(f"with {_CF}.inside_try():\n    pass")[0]
        with_stmt.body = node.body
        node.body = [with_stmt]
        return node

    def visit_ListComp(self, node):
        """``[elt for target in it if cond]`` becomes ``list_comp(lambda target: elt, it,
        where, lambda target: cond)``, which compiles a comprehension over an array of
        run-time length as a graph loop, and a filter on traced values as appends the data
        decide (one generator; others stay Python's)."""
        if getattr(node, "nptf_bindings", False):
            return self.generic_visit(node)
        if len(node.generators) > 1:
            node = _one_generator(node)
        gen = node.generators[0]
        if len(node.generators) != 1 or gen.is_async or not _simple_target(gen.target):
            return self.generic_visit(node)
        ifs, gen.ifs = gen.ifs, []
        if ifs:
            cond = _truth_only(ifs[0] if len(ifs) == 1 else
                               gast.BoolOp(op=gast.And(), values=ifs))
            # The condition is a second comprehension's element, converted as one.
            probe = gast.ListComp(elt=cond, generators=[gast.comprehension(
                target=gen.target, iter=gast.Constant(value=None, kind=None), ifs=[],
                is_async=0)])
            cond_fn = self.visit_ListComp(probe).args[0]
        it = gen.iter
        if not getattr(it, "keywords", None):
            _iteration_calls(it)
        self.generic_visit(node)
        it = gen.iter
        fn = _expr("lambda _nptf__item: None")
        target = gen.target
        if isinstance(target, gast.Name):
            fn.args.args[0] = gast.Name(id=target.id, ctx=gast.Param(), annotation=None,
                                        type_comment=None)
            fn.body = node.elt
        else:   # a tuple of names: unpack the item as the comprehension does
            inner = _expr("lambda: None")
            inner.args.args = [gast.Name(id=e.id, ctx=gast.Param(), annotation=None,
                                         type_comment=None) for e in target.elts]
            inner.body = node.elt
            fn.body = _expr("(None)(*_nptf__item)")
            fn.body.func = inner
        call = _expr(f"{_CF}.list_comp(None, None, {self.where(node)!r})")
        call.args[0], call.args[1] = fn, it
        if ifs:
            call.args.append(cond_fn)
        return gast.copy_location(call, node)

    def visit_FunctionDef(self, node):
        if node.name.startswith("_nptf__") and not node.name.startswith("_nptf__probe_"):
            return node         # a branch's or a loop body's function, converted already
        if _contains(node, (gast.Yield, gast.YieldFrom), cross_loops=True):
            # A generator's loops run in Python as it is iterated: a loop made a graph
            # loop or a function of its own would take the ``yield`` with it.
            return node
        outer = self.scope
        if outer is not None:
            self.scope = outer | _local_names(node)
        try:
            return self.generic_visit(node)
        finally:
            self.scope = outer

    def visit_Lambda(self, node):
        return node


# ------------------------------------------------- writes through names -> notes
class _WriteSites(gast.NodeTransformer):
    """``d[k] = v``, ``obj.a = v``, ``del d[k]``, ``d[k] += v``, ``log.append(v)``: the
    object written through becomes ``side_effects.recv(obj, ...)``, which returns it and
    tells a trace which variable and line write into state that outlives the call."""

    def __init__(self, filename, line_offset):
        self.filename, self.line_offset = filename, line_offset

    def _recv(self, target, kind, node, attr=None):
        obj = target.value
        if isinstance(obj, gast.Name) and obj.id.startswith("_nptf__"):
            return
        try:
            text = ast.unparse(gast.gast_to_ast(obj))
        except Exception:  # noqa: BLE001  (only names the variable in a message)
            text = "?"
        where = f"{self.filename}:{getattr(node, 'lineno', 0) + self.line_offset}"
        call = _expr(f"{_SE}.recv(None, {text!r}, {where!r}, {kind!r}, {attr!r})")
        call.args[0] = obj
        target.value = call

    def _store(self, target, node, prefix=""):
        if isinstance(target, (gast.Tuple, gast.List)):
            for t in target.elts:
                self._store(t, node, prefix)
        elif isinstance(target, gast.Starred):
            self._store(target.value, node, prefix)
        elif isinstance(target, gast.Subscript):
            self._recv(target, prefix + "item", node)
        elif isinstance(target, gast.Attribute):
            self._recv(target, prefix + "attr", node, target.attr)

    def visit_Assign(self, node):
        self.generic_visit(node)
        for t in node.targets:
            self._store(t, node)
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is not None:
            self._store(node.target, node)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        self._store(node.target, node, "aug")
        return node

    def visit_Delete(self, node):
        self.generic_visit(node)
        for t in node.targets:
            self._store(t, node, "del")
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, gast.Load) and node.attr in side_effects.MUTATING_METHODS:
            self._recv(node, "call", node, node.attr)
        return node


# ----------------------------------------------------- array reads -> calls
class _Reads(gast.NodeTransformer):
    """``a[k]`` read becomes ``namespace.getitem(a, k)``: a NumPy array the function holds
    (a global lookup table) indexed with a traced value reads as a graph value, where
    NumPy's own indexing would ask for the value. Writes (``a[k] = v``) stay as they are."""

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, gast.Store):
            # ``a[i] = v``: a Python list takes a traced position (``item_target``).
            call = _expr(f"{_IX}.item_target(None)")
            call.args = [node.value]
            node.value = gast.copy_location(call, node.value)
            return node
        if not isinstance(node.ctx, gast.Load):
            return node
        call = _expr(f"{_IX}.getitem(None, None)")
        call.args = [node.value, self._key(node.slice)]
        return gast.copy_location(call, node)

    def _key(self, node):
        if isinstance(node, gast.Slice):
            call = _expr(f"{_IX}.make_slice(None, None, None)")
            call.args = [b if b is not None else gast.Constant(value=None, kind=None)
                         for b in (node.lower, node.upper, node.step)]
            return gast.copy_location(call, node)
        if isinstance(node, gast.Tuple):
            node.elts = [self._key(e) for e in node.elts]
        return node


# ----------------------------------------------- dicts keyed by traced values
class _DictsOfPairs(gast.NodeTransformer):
    """``dict(zip(keys, values))`` (or of ``enumerate``) as ``{k: v for k, v in
    zip(...)}``: Python's dict of the same pairs in the same order, whose comprehension
    runs over arrays of a length known only at run time and may key by traced values
    (``dict(zip(*np.unique(y, return_counts=True)))``)."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, gast.Name) and node.func.id == "dict" and \
                len(node.args) == 1 and not node.keywords and \
                isinstance(node.args[0], gast.Call) and \
                isinstance(node.args[0].func, gast.Name) and \
                node.args[0].func.id in ("zip", "enumerate") and not node.args[0].keywords:
            comp = _expr("{_nptf__key: _nptf__value for _nptf__key, _nptf__value in None}")
            comp.generators[0].iter = node.args[0]
            return gast.copy_location(comp, node)
        return node


def _is_empty_dict(node):
    return isinstance(node, gast.Dict) and not node.keys or \
        isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "dict" and not node.args and not node.keywords or \
        _is_defaultdict(node)


def _is_counter(node):
    """``Counter()``, ``Counter(items)`` or ``collections.Counter(...)`` (by its name: the
    call checks what it calls)."""
    f = node.func if isinstance(node, gast.Call) else None
    return f is not None and len(node.args) <= 1 and not node.keywords and (
        isinstance(f, gast.Name) and f.id == "Counter" or
        isinstance(f, gast.Attribute) and f.attr == "Counter")


# The methods of a dict that change it, which converted code runs as ``dict_call``.
_DICT_CHANGES = ("setdefault", "pop", "popitem", "update", "clear")


def _dict_method_call(node, names):
    """``(name, method)`` of a call ``name.method(...)`` of ``_DICT_CHANGES`` on one of
    ``names``, else None."""
    f = node.func if isinstance(node, gast.Call) else None
    if isinstance(f, gast.Attribute) and isinstance(f.value, gast.Name) and \
            f.value.id in names and f.attr in _DICT_CHANGES:
        return f.value.id, f.attr
    return None


def _is_defaultdict(node):
    """``defaultdict(f)`` or ``collections.defaultdict(f)`` (by its name: the call checks
    what it calls)."""
    f = node.func if isinstance(node, gast.Call) else None
    return f is not None and len(node.args) == 1 and not node.keywords and (
        isinstance(f, gast.Name) and f.id == "defaultdict" or
        isinstance(f, gast.Attribute) and f.attr == "defaultdict")


def _own_nodes(fdef):
    """The nodes of ``fdef``'s body, not inside functions, classes or lambdas it defines."""
    stack = list(fdef.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef,
                                 gast.Lambda)):
            stack.extend(gast.iter_child_nodes(node))


def _keyed_names(fdef):
    """The variables ``fdef`` binds to an empty dict (``{}``, ``dict()``) whose items it
    assigns, or to a dict comprehension, and whose items it never assigns at a string
    constant (a record of named fields stays a Python dict). Not parameters."""
    bound, assigned, named = set(), set(), set()
    for node in _own_nodes(fdef):
        for target, value in _bindings(node):
            if _is_empty_dict(value):
                bound.add(target.id)
            elif isinstance(value, gast.DictComp) or _is_counter(value):
                bound.add(target.id)
                assigned.add(target.id)
        if isinstance(node, gast.Subscript) and isinstance(node.ctx, (gast.Store, gast.Del)):
            # ``d[k] = v``, ``del d[k]``, and ``d[k][i] = v`` into an array value.
            base = node.value
            if isinstance(node.ctx, gast.Store) and isinstance(base, gast.Subscript):
                node, base = base, base.value
            if isinstance(base, gast.Name):
                if isinstance(node.slice, gast.Constant) and isinstance(node.slice.value, str):
                    named.add(base.id)
                else:
                    assigned.add(base.id)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                isinstance(node.func.value, gast.Name) and node.func.attr in _DICT_CHANGES:
            # ``d.update(lr=0.1)``, ``d.setdefault("lr", 0.1)``, ``d.update({"lr": 0.1})``:
            # a record of named fields.
            first = node.args[0] if node.args else None
            if node.keywords or _is_str(first) or isinstance(first, gast.Dict) and \
                    any(_is_str(k) for k in first.keys):
                named.add(node.func.value.id)
            else:
                assigned.add(node.func.value.id)
    return (bound & assigned) - named - _parameters(fdef)


def _is_str(node):
    return isinstance(node, gast.Constant) and isinstance(node.value, str)


def _bindings(node):
    """(name, value) of each name a plain assignment binds to its own value: ``d = {}``,
    ``a, b = {}, {}``."""
    if not isinstance(node, gast.Assign) or len(node.targets) != 1:
        return []
    target, value = node.targets[0], node.value
    if isinstance(target, gast.Name):
        return [(target, value)]
    if isinstance(target, (gast.Tuple, gast.List)) and isinstance(value, (gast.Tuple, gast.List)) \
            and len(target.elts) == len(value.elts):
        return [(t, v) for t, v in zip(target.elts, value.elts) if isinstance(t, gast.Name)]
    return []


_OPERATORS = {gast.Add: "add", gast.Sub: "sub", gast.Mult: "mul", gast.Div: "truediv",
              gast.FloorDiv: "floordiv", gast.Mod: "mod", gast.Pow: "pow",
              gast.MatMult: "matmul", gast.BitOr: "or_", gast.BitAnd: "and_",
              gast.BitXor: "xor", gast.LShift: "lshift", gast.RShift: "rshift"}


def _index(node):
    """An index as an expression: ``a:b`` as ``slice(a, b, None)``."""
    if isinstance(node, gast.Slice):
        call = _expr("slice(None, None, None)")
        call.args = [b if b is not None else gast.Constant(value=None, kind=None)
                     for b in (node.lower, node.upper, node.step)]
        return gast.copy_location(call, node)
    if isinstance(node, gast.Tuple):
        return gast.copy_location(gast.Tuple(elts=[_index(e) for e in node.elts],
                                             ctx=gast.Load()), node)
    return node


class _Counters(gast.NodeTransformer):
    """``Counter(items)`` anywhere in the function (``d.update(Counter(b))``) as a
    ``keyed_dict`` call, which counts traced items as a dict keyed by them."""

    def _skip(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _skip

    def visit_Call(self, node):
        self.generic_visit(node)
        if not _is_counter(node):
            return node
        call = _expr(f"{_TD}.keyed_dict()")
        call.args = [node.func] + node.args
        return gast.copy_location(call, node)


def _rebinds(expr, name):
    """Whether ``expr`` binds ``name`` (a dict method call inlined as ``name := ...``)."""
    return any(isinstance(n, gast.NamedExpr) and isinstance(n.target, gast.Name) and
               n.target.id == name for n in gast.walk(expr))


class _InlineDictCalls(gast.NodeTransformer):
    """``name.method(...)`` of ``_DICT_CHANGES`` inside an expression (``s + d.pop(k)``) as
    ``returned((name := dict_call(name, ...)))``: evaluated where Python evaluates it.
    Not inside operands that the conversion of control flow makes functions of (``and``,
    ``or``, conditional expressions, comparisons, comprehensions, lambdas), where the
    walrus would bind a variable of that function: there the call stays, and is refused."""

    def __init__(self, names):
        self.names = names

    def _skip(self, node):
        return node

    visit_BoolOp = visit_IfExp = visit_Compare = visit_Lambda = visit_ListComp = \
        visit_SetComp = visit_DictComp = visit_GeneratorExp = _skip

    def visit_Call(self, node):
        self.generic_visit(node)
        found = _dict_method_call(node, self.names)
        if not found:
            return node
        name, method = found
        run = _expr(f"{_TD}.dict_call(None, {method!r}, {name!r})")
        run.args[0] = _name(name)
        run.args += node.args
        run.keywords = node.keywords
        bind = gast.NamedExpr(target=_name(name, store=True), value=run)
        out = _expr(f"{_TD}.returned(None)")
        out.args = [bind]
        return gast.copy_location(out, node)


def _rewrite_blocks(stmt, statements):
    """Each block of statements inside ``stmt`` (its body, ``else``, ``finally`` and
    ``except`` blocks) as ``statements(block)``, a new list of statements."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
            setattr(stmt, field, statements(block))
    for handler in getattr(stmt, "handlers", ()):
        handler.body = statements(handler.body)


def _per_statement(body, before):
    """``body`` and the blocks inside it, each statement (but a definition) preceded by
    the statements ``before(stmt)`` returns, which may change ``stmt``."""
    out = []
    for stmt in body:
        if not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            _rewrite_blocks(stmt, lambda block: _per_statement(block, before))
            out += before(stmt)
        out.append(stmt)
    return out


def _lower_lazy_walruses(body):
    """``if a and (t := f(x)) > 0:`` (an ``and``/``or`` or a conditional expression with an
    assignment expression inside, as the test of an ``if`` or the value of an assignment, a
    ``return`` or an expression statement) as statements that evaluate it as Python does,
    one operand after the other: ``_nptf_lazy = a``, ``if _nptf_lazy: _nptf_lazy = (t :=
    f(x)) > 0``, then ``if _nptf_lazy:``. The conversion makes the operands of such
    expressions functions, where the walrus would bind a variable of that function; in a
    statement it binds the function's own. (Not a ``_nptf__`` name: control flow carries
    only the user's variables of those.)"""
    return _per_statement(body, _walruses_lowered)


def _walruses_lowered(stmt):
    field = "test" if isinstance(stmt, gast.If) else "value" if isinstance(
        stmt, (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Return, gast.Expr)) else None
    expr = getattr(stmt, field) if field else None
    if not isinstance(expr, (gast.BoolOp, gast.IfExp)) or \
            not any(isinstance(n, gast.NamedExpr) for n in gast.walk(expr)):
        return []
    name = f"_nptf_lazy{next(_counter)}"
    setattr(stmt, field, _name(name))
    return _lower_lazy_walruses([gast.copy_location(s, stmt) for s in _lazily(expr, name)])


def _lazily(expr, name):
    """Statements that bind ``name`` to ``expr`` (an ``and``/``or`` or a conditional
    expression), evaluating its operands as Python does."""
    def assign(value):
        return gast.Assign(targets=[_name(name, store=True)], value=value, type_comment=None)

    if isinstance(expr, gast.IfExp):
        return [gast.If(test=expr.test, body=[assign(expr.body)], orelse=[assign(expr.orelse)])]
    stmts = [assign(expr.values[0])]
    inner = stmts
    for value in expr.values[1:]:
        test = _name(name) if isinstance(expr.op, gast.And) else \
            gast.UnaryOp(op=gast.Not(), operand=_name(name))
        step = gast.If(test=test, body=[assign(value)], orelse=[])
        inner.append(step)
        inner = step.body
    return stmts


def _hoist_dict_comps(body):
    """``return {k: v for ...}`` as ``_nptf_dict = {k: v for ...}`` then ``return
    _nptf_dict`` (and a comprehension assigned to an item or attribute alike), in
    ``body`` and the blocks inside it: a variable bound to the comprehension, which
    ``_KeyedDicts`` makes the loop it stands for. Nothing runs between the two. (Not a
    ``_nptf__`` name: control flow carries only the user's variables of those.)"""
    return _per_statement(body, _dict_comps_bound)


def _dict_comps_bound(stmt):
    out = []
    if isinstance(stmt, gast.Return) and isinstance(stmt.value, gast.DictComp) or \
            isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.DictComp) and \
            len(stmt.targets) == 1 and not isinstance(stmt.targets[0], gast.Name):
        name = f"_nptf_dict{next(_counter)}"
        out.append(gast.copy_location(gast.Assign(targets=[_name(name, store=True)],
                                                  value=stmt.value, type_comment=None),
                                      stmt))
        stmt.value = _name(name)
    elif isinstance(stmt, (gast.Return, gast.Assign)) and \
            isinstance(stmt.value, (gast.Tuple, gast.List)) and \
            any(isinstance(e, gast.DictComp) for e in stmt.value.elts):
        # ``return mode, {k: v for ...}``: the items up to the last comprehension
        # bound first, in their order, so that each comprehension is a variable's.
        elts = stmt.value.elts
        last = max(i for i, e in enumerate(elts) if isinstance(e, gast.DictComp))
        for i, e in enumerate(elts[:last + 1]):
            if any(isinstance(x, gast.Starred) for x in elts[:last + 1]):
                break
            name = f"_nptf_dict{next(_counter)}"
            out.append(gast.copy_location(gast.Assign(
                targets=[_name(name, store=True)], value=e, type_comment=None), stmt))
            elts[i] = _name(name)
    return out


class _KeyedDicts(gast.NodeTransformer):
    """For a function whose first trace keyed a dict by a traced value: the variables of
    ``_keyed_names`` hold ``TracedDict``s, which a traced key keeps as arrays. ``d = {}``
    becomes ``d = keyed_dict()``; ``d[k] = v`` rebinds the variable to the dict after the
    assignment (``d = dict_setitem(d, k, v, "d")``), so an `if` or a loop on traced
    values carries the dict as its variable; ``d[k] += v`` likewise, the key computed
    once; ``d = {k: v for x in it if c}`` is the loop it stands for, into a new dict,
    with the comprehension's variables its own."""

    def __init__(self, fdef, filename, line_offset):
        self.fdef, self.names = fdef, _keyed_names(fdef)
        self.filename, self.line_offset = filename, line_offset

    def rewrite(self):
        self.fdef.body = [_Counters().visit(s) for s in self.fdef.body]
        if self.names:
            self.fdef.body = self._statements(self.fdef.body)

    def _statements(self, body):
        out = []
        for stmt in body:
            new = self.visit(stmt)
            out += new if isinstance(new, list) else [new]
        return out

    def generic_visit(self, node):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef,
                             gast.Lambda)):
            return node
        _rewrite_blocks(node, self._statements)
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = generic_visit

    def _keyed_target(self, target):
        return isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name) \
            and target.value.id in self.names and not isinstance(target.slice, gast.Slice)

    def _set(self, name, key, value, node):
        call = _expr(f"{_TD}.dict_setitem(None, None, None, {name!r})")
        call.args[:3] = [_name(name), key, value]
        return gast.copy_location(gast.Assign(targets=[_name(name, store=True)], value=call,
                                              type_comment=None), node)

    def visit_Assign(self, node):
        if len(node.targets) != 1:
            return node
        if not _dict_method_call(node.value, self.names) and \
                not isinstance(node.value, gast.DictComp):
            self._inline(node)
        target = node.targets[0]
        if isinstance(target, gast.Name) and target.id in self.names and \
                isinstance(node.value, gast.DictComp):
            return self._comprehension(target.id, node.value, node)
        if _dict_method_call(node.value, self.names):
            rebind, result = self._changing_call(node.value, node)
            node.value = result
            return [rebind, node]
        if isinstance(target, gast.Name):
            if target.id in self.names and (_is_empty_dict(node.value) or
                                            _is_counter(node.value)):
                node.value = self._keyed(node.value)
            return node
        if _bindings(node):     # ``a, b = {}, {}``
            node.value.elts = [self._keyed(v) if isinstance(t, gast.Name) and
                               t.id in self.names and _is_empty_dict(v) else v
                               for t, v in zip(target.elts, node.value.elts)]
            return node
        if isinstance(target, (gast.Tuple, gast.List)) and \
                isinstance(node.value, (gast.Tuple, gast.List)) and \
                len(target.elts) == len(node.value.elts) and \
                any(self._keyed_target(t) for t in target.elts) and \
                not any(isinstance(t, gast.Starred) for t in target.elts):
            # ``(seen[v], dist[v]) = (False, inf)``: the values first, as Python evaluates
            # them, then each assignment as one of its own.
            temps = [f"_nptf__value_{next(_counter)}" for _ in target.elts]
            out = [gast.copy_location(gast.Assign(targets=[_name(t, store=True)], value=v,
                                                  type_comment=None), node)
                   for t, v in zip(temps, node.value.elts)]
            return out + self._statements([
                gast.copy_location(gast.Assign(targets=[t], value=_name(tmp),
                                               type_comment=None), node)
                for t, tmp in zip(target.elts, temps)])
        if self._keyed_target(target):
            name = target.value.id
            if not _rebinds(node.value, name):
                return self._set(name, target.slice, node.value, node)
            # ``d[k] = d.pop(k, 0) + 1``: Python evaluates the value (which changes the
            # dict) before it reads ``d`` to assign into, so the assignment goes into the
            # dict after the call.
            value = f"_nptf__value_{next(_counter)}"
            first = gast.copy_location(gast.Assign(targets=[_name(value, store=True)],
                                                   value=node.value, type_comment=None), node)
            return [first, self._set(name, target.slice, _name(value), node)]
        if self._nested_target(target):
            return self._write_into(target, node.value, node)
        return node

    @staticmethod
    def _keyed(value):
        """``{}``, ``dict()``, ``defaultdict(f)`` or ``Counter(...)`` as a ``keyed_dict``
        call."""
        call = _expr(f"{_TD}.keyed_dict()")
        if _is_defaultdict(value) or _is_counter(value):
            call.args = [value.func] + value.args
        return gast.copy_location(call, value)

    def _nested_target(self, target):
        """``d[k][i]`` of a keyed dict ``d``: an item of one of its array values."""
        return isinstance(target, gast.Subscript) and self._keyed_target(target.value) \
            and not isinstance(target.value.slice, gast.Slice)

    def _write_into(self, target, value, node, op=None):
        name = target.value.value.id
        call = _expr(f"{_TD}.dict_write_into(None, None, None, None, {name!r})")
        call.args[:4] = [_name(name), target.value.slice, _index(target.slice), value]
        if op is not None:
            call.args.append(gast.Constant(value=_OPERATORS[type(op)], kind=None))
        return gast.copy_location(gast.Assign(targets=[_name(name, store=True)], value=call,
                                              type_comment=None), node)

    def _changing_call(self, call, node, used=True):
        """``name.method(...)`` of ``_DICT_CHANGES`` as a statement of its own: the variable
        rebound to the dict after the call, and the call's result."""
        name, method = _dict_method_call(call, self.names)
        run = _expr(f"{_TD}.{'dict_call' if used else 'dict_run'}(None, {method!r}, {name!r})")
        run.args[0] = _name(name)
        run.args += call.args
        run.keywords = call.keywords
        rebind = gast.copy_location(gast.Assign(targets=[_name(name, store=True)], value=run,
                                                type_comment=None), node)
        return rebind, gast.copy_location(_expr(f"{_TD}.returned(None)"), call)

    def _inline(self, node):
        if getattr(node, "value", None) is not None:
            node.value = _InlineDictCalls(self.names).visit(node.value)
        return node

    def visit_Expr(self, node):
        if _dict_method_call(node.value, self.names):
            return self._changing_call(node.value, node, used=False)[0]
        return self._inline(node)

    def visit_Return(self, node):
        comp = node.value
        if isinstance(comp, gast.DictComp) and self._over_keyed(comp.generators[0]):
            # ``return {c: sums[c] / n[c] for c in sums}``: the loop it stands for, into a
            # dict of its own.
            name = f"_nptf_dict_{next(_counter)}"
            made = self._comprehension(name, comp, node)
            if isinstance(made, list):
                return made + [gast.copy_location(gast.Return(value=_name(name)), node)]
        if _dict_method_call(node.value, self.names):
            rebind, result = self._changing_call(node.value, node)
            return [rebind, gast.copy_location(gast.Return(value=result), node)]
        return self._inline(node)

    def visit_Delete(self, node):
        out = []
        for target in node.targets:
            if self._keyed_target(target):
                name = target.value.id
                call = _expr(f"{_TD}.dict_delitem(None, None, {name!r})")
                call.args[:2] = [_name(name), target.slice]
                out.append(gast.copy_location(gast.Assign(
                    targets=[_name(name, store=True)], value=call, type_comment=None), node))
            else:
                out.append(gast.copy_location(gast.Delete(targets=[target]), node))
        return out

    def visit_AugAssign(self, node):
        self._inline(node)
        target = node.target
        if self._nested_target(target):
            return self._write_into(target, node.value, node, node.op)
        if not self._keyed_target(target):
            return node
        name, k = target.value.id, next(_counter)
        key = f"_nptf__key_{k}"
        first = gast.copy_location(gast.Assign(targets=[_name(key, store=True)],
                                               value=target.slice, type_comment=None), node)
        old = _expr(f"{_TD}.dict_item_or_default({name}, {key})")
        value = _expr(f"{_TD}.augmented(None, None, {_OPERATORS[type(node.op)]!r})")
        value.args[:2] = [old, node.value]
        value = gast.copy_location(value, node)
        return [first, self._set(name, _name(key), value, node)]

    def _over_keyed(self, generator):
        """Whether a comprehension's ``generator`` iterates a keyed dict (``for c in d``,
        ``d.keys()``, ``d.items()``)."""
        loop = gast.For(target=generator.target, iter=generator.iter, body=[], orelse=[],
                        type_comment=None)
        return _keys_iterated(loop) in self.names

    def _comprehension(self, name, comp, node):
        k = next(_counter)
        renamed = {}
        for gen in comp.generators:
            for t in gast.walk(gen.target):
                if isinstance(t, gast.Name):
                    renamed.setdefault(t.id, f"_nptf__dc{k}_{t.id}")
        if name in renamed or any(isinstance(n, gast.Name) and n.id == name
                                  for n in gast.walk(comp)) or \
                any(g.is_async for g in comp.generators):
            return node

        class Rename(gast.NodeTransformer):
            def visit_Name(self, n):
                if n.id in renamed:
                    n.id = renamed[n.id]
                return n

        rename = Rename()
        inner = [self._set(name, rename.visit(comp.key), rename.visit(comp.value), node)]
        for j, gen in reversed(list(enumerate(comp.generators))):
            for cond in reversed(gen.ifs):
                inner = [gast.copy_location(gast.If(test=rename.visit(cond), body=inner,
                                                    orelse=[]), node)]
            # The first generator's iterable is computed in the enclosing scope.
            it = gen.iter if j == 0 else rename.visit(gen.iter)
            inner = [gast.copy_location(gast.For(target=rename.visit(gen.target), iter=it,
                                                 body=inner, orelse=[], type_comment=None),
                                        node)]
        start = gast.copy_location(gast.Assign(targets=[_name(name, store=True)],
                                               value=_expr(f"{_TD}.keyed_dict()"),
                                               type_comment=None), node)
        return [start] + inner


class _OwnBodyRewrite(gast.NodeTransformer):
    """A rewrite of the statements of ``fdef``'s own body that concern ``names`` (not of
    functions, classes or lambdas it defines, whose names are their own)."""

    def __init__(self, fdef, names):
        self.fdef, self.names = fdef, names

    def rewrite(self):
        if self.names:
            self.visit(self.fdef)

    def visit_FunctionDef(self, node):
        return self.generic_visit(node) if node is self.fdef else node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef


class _BucketAppends(_OwnBodyRewrite):
    """For a function whose first trace read a list of lists at a traced position:
    ``t[k].append(v)``, a statement, rebinds the variable to the list after it (``t =
    bucket_append(t, k, v, "t")``), so an `if` or a loop on traced values carries a list
    of lists appended to at traced positions as its variable (``list_buckets``). Local
    variables only, not parameters."""

    def __init__(self, fdef):
        super().__init__(fdef, _local_names(fdef) - _parameters(fdef))

    def visit_Expr(self, node):
        call = node.value
        if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and
                call.func.attr == "append" and len(call.args) == 1 and not call.keywords):
            return node
        target = call.func.value
        if not (isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name) and
                target.value.id in self.names and not isinstance(target.slice, gast.Slice)):
            return node
        name = target.value.id
        new = _expr(f"{_LB}.bucket_append(None, None, None, {name!r})")
        new.args[:3] = [_name(name), target.slice, call.args[0]]
        return gast.copy_location(gast.Assign(targets=[_name(name, store=True)], value=new,
                                              type_comment=None), node)



# ------------------------------------------------------------- deques as lists
# A deque's methods and the list's methods that do the same to its items.
_DEQUE_AS_LIST = {"append": "append", "appendleft": "insert", "pop": "pop",
                  "popleft": "pop", "extend": "extend", "clear": "clear",
                  "reverse": "reverse"}


def _is_deque_call(node):
    """``deque()``, ``deque(items)`` or ``collections.deque(items)`` (by its name: the call
    checks what it calls), without ``maxlen``."""
    f = node.func if isinstance(node, gast.Call) else None
    return f is not None and len(node.args) <= 1 and not node.keywords and \
        not any(isinstance(a, gast.Starred) for a in node.args) and (
            isinstance(f, gast.Name) and f.id == "deque" or
            isinstance(f, gast.Attribute) and f.attr == "deque")


def _list_like_deques(fdef):
    """The variables ``fdef`` binds only to a new deque and uses only as a list could be:
    the methods of ``_DEQUE_AS_LIST`` (``pop`` without a position), ``len``, its truth
    and an item at a constant position. Such a deque is a worklist no other name
    reaches, whose items a list holds in the same order, so a list the data grow
    (``growing_lists``) stands for it."""
    return _confined(fdef, _is_deque_call, _used_as_list)


def _confined(fdef, made, used):
    """The local variables ``fdef`` binds only to values ``made`` accepts (``name =
    value`` statements) and reads only where ``used(name_node, parent, parents)`` holds,
    never from a nested function or lambda: containers no other name reaches."""
    parents = {}
    for node in gast.walk(fdef):
        for child in gast.iter_child_nodes(node):
            parents[child] = node
    own = set(map(id, _own_nodes(fdef)))
    params = {a.id for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs +
              [fdef.args.vararg, fdef.args.kwarg] if isinstance(a, gast.Name)}
    found, bad = set(), set(params)
    for node in gast.walk(fdef):
        if not isinstance(node, gast.Name) or node is fdef:
            continue
        parent = parents.get(node)
        if id(node) not in own:
            bad.add(node.id)        # reached from a nested function or lambda
        elif isinstance(node.ctx, gast.Store):
            if isinstance(parent, gast.Assign) and parent.targets == [node] and \
                    made(parent.value):
                found.add(node.id)
            else:
                bad.add(node.id)
        elif isinstance(node.ctx, gast.Del) or not used(node, parent, parents):
            bad.add(node.id)
    return found - bad


def _truth_of(node, parent, parents):
    """Whether ``node`` is read only for its truth (``while q:``, ``if not s``)."""
    return isinstance(parent, (gast.While, gast.If, gast.IfExp)) and parent.test is node or \
        isinstance(parent, gast.UnaryOp) and isinstance(parent.op, gast.Not) or \
        isinstance(parent, gast.BoolOp) and isinstance(parents.get(parent),
                                                      (gast.While, gast.If)) or \
        isinstance(parent, gast.Call) and parent.args == [node] and not parent.keywords and \
        isinstance(parent.func, gast.Name) and parent.func.id in ("len", "bool")


def _used_as_list(node, parent, parents):
    if isinstance(parent, gast.Attribute) and parent.value is node:
        call = parents.get(parent)
        return parent.attr in _DEQUE_AS_LIST and isinstance(call, gast.Call) and \
            call.func is parent and not call.keywords and \
            len(call.args) == (1 if parent.attr in ("append", "appendleft", "extend") else 0)
    if _truth_of(node, parent, parents):
        return True
    if isinstance(parent, gast.Subscript) and parent.value is node:
        k = parent.slice
        if isinstance(k, gast.UnaryOp) and isinstance(k.op, gast.USub):
            k = k.operand
        return isinstance(k, gast.Constant) and type(k.value) is int
    # Not a `for` over it: a deque changed while a loop goes over it raises, a list not.
    return False


class _DequesAsLists(_OwnBodyRewrite):
    """The deques of ``_list_like_deques`` as lists: ``q = deque(items)`` makes a list
    (``deque_as_list`` checks that ``deque`` is ``collections.deque``), ``q.popleft()``
    is ``q.pop(0)`` and ``q.appendleft(v)`` is ``q.insert(0, v)``, so that a breadth-first
    queue is the worklist a list the data grow already is."""

    def __init__(self, fdef):
        super().__init__(fdef, _list_like_deques(fdef))

    def visit_Assign(self, node):
        self.generic_visit(node)
        if isinstance(node.targets[0], gast.Name) and node.targets[0].id in self.names:
            call = _expr(f"{_CF}.deque_as_list(None)")
            call.args = [node.value.func] + node.value.args
            node.value = gast.copy_location(call, node.value)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, gast.Attribute) and isinstance(f.value, gast.Name) and \
                f.value.id in self.names and f.attr in _DEQUE_AS_LIST:
            if f.attr in ("popleft", "appendleft"):
                node.args.insert(0, gast.Constant(value=0, kind=None))
            f.attr = _DEQUE_AS_LIST[f.attr]
        return node



# ------------------------------------------------ lists extended by arrays
def _made_as_list(node):
    """``[...]``, a list comprehension or ``list(...)``: an expression that makes a list."""
    return isinstance(node, (gast.List, gast.ListComp)) or \
        isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "list"


class _ListExtends(_OwnBodyRewrite):
    """``out.extend(v)`` and ``out += v``, statements on a local variable the function binds
    to a new list somewhere, rebind it to the list after them (``out =
    growing_lists.extended(out, v, "out")``): extended by an array whose length is known
    only at run time (``out.extend(np.flatnonzero(m))``), the list is one the data grow,
    which Python's list cannot hold. Otherwise the call is Python's own, on the same list."""

    def __init__(self, fdef):
        super().__init__(fdef, set())
        for n in _own_nodes(fdef):
            if not isinstance(n, gast.Assign):
                continue
            for t in n.targets:
                if isinstance(t, gast.Name) and _made_as_list(n.value):
                    self.names.add(t.id)
                elif isinstance(t, (gast.Tuple, gast.List)) and \
                        isinstance(n.value, (gast.Tuple, gast.List)) and \
                        len(t.elts) == len(n.value.elts):
                    # ``train, test = [], []``
                    self.names.update(a.id for a, v in zip(t.elts, n.value.elts)
                                      if isinstance(a, gast.Name) and _made_as_list(v))
        self.names -= _parameters(fdef)

    def _rebound(self, name, value, how, node):
        call = _expr(f"{_GL}.extended(None, None, {name!r}, {how!r})")
        call.args[:2] = [_name(name), value]
        return gast.copy_location(gast.Assign(targets=[_name(name, store=True)],
                                              value=gast.copy_location(call, node),
                                              type_comment=None), node)

    def visit_Expr(self, node):
        call = node.value
        if isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and \
                call.func.attr == "extend" and isinstance(call.func.value, gast.Name) and \
                call.func.value.id in self.names and len(call.args) == 1 and \
                not call.keywords and not isinstance(call.args[0], gast.Starred):
            return self._rebound(call.func.value.id, call.args[0], "extend", node)
        return node

    def visit_AugAssign(self, node):
        if isinstance(node.op, gast.Add) and isinstance(node.target, gast.Name) and \
                node.target.id in self.names:
            return self._rebound(node.target.id, node.value, "+=", node)
        return node


# --------------------------------------------------------- sets as keyed dicts
# The methods of a set, as statements, and the number of their arguments.
_SET_CHANGES = {"add": 1, "discard": 1, "remove": 1, "clear": 0}


def _is_new_set(node):
    """``set()`` or a set display ``{a, b}``."""
    return isinstance(node, gast.Set) and \
        not any(isinstance(e, gast.Starred) for e in node.elts) or \
        isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "set" and not node.args and not node.keywords


def _used_as_keys(node, parent, parents):
    """A set read as its members could be a dict's keys: a changing method as a statement
    of its own, ``x in s``, ``len``, ``sorted`` and its truth (not iterated: a set's order
    is its hash order, a dict's the order of insertion)."""
    if isinstance(parent, gast.Attribute) and parent.value is node:
        call = parents.get(parent)
        return parent.attr in _SET_CHANGES and isinstance(call, gast.Call) and \
            call.func is parent and not call.keywords and \
            len(call.args) == _SET_CHANGES[parent.attr] and \
            isinstance(parents.get(call), gast.Expr)
    if isinstance(parent, gast.Compare) and parent.comparators == [node] and \
            isinstance(parent.ops[0], (gast.In, gast.NotIn)):
        return True
    if isinstance(parent, gast.Call) and parent.args == [node] and not parent.keywords and \
            isinstance(parent.func, gast.Name) and parent.func.id == "sorted":
        return True
    return _truth_of(node, parent, parents)


class _SetsAsDicts(gast.NodeTransformer):
    """For a function whose first trace keyed a dict or a set by a traced value: a set
    used only as ``_used_as_keys`` says is the dict of its members (each to ``True``),
    which ``_KeyedDicts`` then keys by traced values: ``s = set()`` is ``s = {}``, ``s =
    {a, b}`` is ``s = {}`` and ``s[a] = True`` for each member, ``s.add(x)`` is ``s[x] =
    True`` (an equal key keeps the first, as a set's member does), ``s.discard(x)`` is
    ``s.pop(x, None)`` and ``s.remove(x)`` is ``del s[x]`` (Python's ``KeyError`` too)."""

    def __init__(self, fdef):
        names = _confined(fdef, _is_new_set, _used_as_keys)
        # A display reading its own variable (``s = {len(s)}``) sees the set it replaces;
        # its members, inserted one by one, would see the new one.
        for node in _own_nodes(fdef):
            for target, value in _bindings(node):
                if target.id in names and isinstance(value, gast.Set) and any(
                        isinstance(n, gast.Name) and n.id == target.id
                        for n in gast.walk(value)):
                    names.discard(target.id)
        self.fdef, self.names = fdef, names

    def rewrite(self):
        if self.names:
            self.fdef.body = self._statements(self.fdef.body)

    def _statements(self, body):
        out = []
        for stmt in body:
            new = self._statement(stmt)
            out += new if isinstance(new, list) else [new]
        return out

    def _statement(self, node):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            return node
        _rewrite_blocks(node, self._statements)
        if isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name) and \
                node.targets[0].id in self.names:
            name, members = node.targets[0].id, getattr(node.value, "elts", [])
            node.value = gast.copy_location(gast.Dict(keys=[], values=[]), node.value)
            return [node] + [self._member(name, m, node) for m in members]
        call = node.value if isinstance(node, gast.Expr) else None
        f = getattr(call, "func", None)
        if not (isinstance(f, gast.Attribute) and isinstance(f.value, gast.Name) and
                f.value.id in self.names):
            return node
        name = f.value.id
        if f.attr == "add":
            return self._member(name, call.args[0], node)
        if f.attr == "discard":
            f.attr = "pop"
            call.args.append(gast.Constant(value=None, kind=None))
        elif f.attr == "remove":
            item = gast.Subscript(value=_name(name), slice=call.args[0], ctx=gast.Del())
            return gast.copy_location(gast.Delete(targets=[item]), node)
        return node

    @staticmethod
    def _member(name, value, node):
        item = gast.Subscript(value=_name(name), slice=value, ctx=gast.Store())
        return gast.copy_location(gast.Assign(targets=[item],
                                              value=gast.Constant(value=True, kind=None),
                                              type_comment=None), node)


# ---------------------------------------------------------------- driver
def convert(fn):
    """The converted function, or ``fn`` itself when its source cannot be converted."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return fn
    note_function(fn)
    key = (code, id(fn.__globals__), KEYED_DICTS.get())
    if key in _cache:
        factory = _cache[key]
        if factory is not None and first_use(key):
            _refresh(factory.__globals__, fn)
    else:
        first_use(key)
        factory = _cache[key] = _make_factory(fn)
    hints = HASHED.get()
    if hints is not None and getattr(factory, "nptf_dict_comp", False):
        # A dict comprehension may key by traced values: a failed trace runs again with
        # traced dicts.
        hints.append(True)
    return _rebound(factory, fn)


def _rebound(factory, fn):
    if factory is None:
        return fn
    cells = [c.cell_contents if _filled(c) else control_flow.Undefined(n)
             for n, c in zip(fn.__code__.co_freevars, fn.__closure__ or ())]
    new = factory(*cells)
    # The converted code runs in a copy of its module's globals, kept with the
    # conversion: a function nested in it that rebinds a global rebinds it there.
    side_effects.add_namespace(factory.__globals__, fn.__code__,
                               fn.__globals__.get("__name__", "?"))
    new.__defaults__, new.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn
    new.nptf_converted_from = fn
    return new


_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})


def _cell_variables(code):
    """The variables that a function (or lambda) defined in ``code``, or in a function
    defined in it, reads from around it (its closure cells). Not a comprehension's: the
    converted code runs those as loops of the function itself."""
    found = set()
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name not in _COMPREHENSIONS:
                found |= set(const.co_freevars)
            found |= _cell_variables(const)
    return found


def _filled(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _lambda_def(fn):
    """``(def of the lambda fn, its file)``: the lambda found in its file's source (by its
    line, its parameters and where its code's instructions lie), as ``def
    _nptf__lambda(params): return body``; None where it cannot be found for certain."""
    code = fn.__code__
    filename = code.co_filename
    lambdas = _lambdas_by_line(filename)
    if lambdas is None:
        return None
    # (line, end line, column, end column) of its instructions; the entry and the return
    # have empty spans.
    spans = [p for p in code.co_positions() if None not in p and (p[0], p[2]) != (p[1], p[3])]
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount +
                              bool(code.co_flags & inspect.CO_VARARGS) +
                              bool(code.co_flags & inspect.CO_VARKEYWORDS)]
    found = []
    for node in lambdas.get(code.co_firstlineno, ()):
        args = node.args
        names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs] + \
            [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        body = node.body
        if sorted(names) != sorted(params):
            continue
        inside = all((body.lineno, body.col_offset) <= (line, col) and
                     (end_line, end_col) <= (body.end_lineno, body.end_col_offset)
                     for line, end_line, col, end_col in spans)
        if inside:
            found.append(node)
    if len(found) != 1:
        return None
    fdef = ast.FunctionDef(name="_nptf__lambda", args=found[0].args,
                           body=[ast.Return(value=found[0].body)], decorator_list=[],
                           returns=None, type_params=[])
    ast.copy_location(fdef, found[0])
    ast.fix_missing_locations(fdef)
    module = gast.ast_to_gast(ast.Module(body=[fdef], type_ignores=[]))
    return module.body[0], filename


_LAMBDAS: dict = {}


def _lambdas_by_line(filename):
    """``{line: [Lambda nodes starting there]}`` of the file ``filename`` (Python's ast),
    cached while the file's lines are unchanged; None where it cannot be parsed."""
    import linecache
    lines = linecache.getlines(filename)
    if not lines:
        return None
    key = (filename, len(lines), hash(lines[0]), hash(lines[-1]))
    if key not in _LAMBDAS:
        try:
            tree = ast.parse("".join(lines))
        except SyntaxError:
            _LAMBDAS[key] = None
        else:
            found = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.Lambda):
                    found.setdefault(node.lineno, []).append(node)
            _LAMBDAS[key] = found
    return _LAMBDAS[key]


def _source_matches(fdef, code):
    """Whether the parsed definition ``fdef`` is the one ``code`` was compiled from, as
    far as its name and parameters tell."""
    if not isinstance(fdef, (gast.FunctionDef, gast.AsyncFunctionDef)) or \
            fdef.name != code.co_name:
        return False
    args = fdef.args
    names = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
    names += [a.id for a in (args.vararg, args.kwarg) if a is not None]
    count = code.co_argcount + code.co_kwonlyargcount + \
        bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    return sorted(names) == sorted(code.co_varnames[:count])


def _make_factory(fn):
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
        return None
    if fn.__name__ == "<lambda>":
        made = _lambda_def(fn)
        if made is None:
            return None
        (fdef, filename), first_line = made, 1
    else:
        try:
            source = textwrap.dedent(inspect.getsource(fn))
            filename = inspect.getsourcefile(fn) or "<unknown>"
            _, first_line = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            return None
        try:
            tree = gast.parse(source)
        except SyntaxError:
            return None
        fdef = tree.body[0]
        if not _source_matches(fdef, fn.__code__):
            # The file changed since the function was defined (an edit not yet reloaded):
            # its lines now hold other code. The function runs as written.
            return None
    if not isinstance(fdef, gast.FunctionDef) or _contains(fdef, (gast.Global, gast.Nonlocal,
                                                                   gast.Yield, gast.YieldFrom),
                                                           cross_loops=True) or \
            _finally_after_return(fdef) or _rebinds_outside(fdef, fn.__code__.co_freevars):
        return None
    fdef.decorator_list = []
    cls = _class_around(fn)
    if cls is not None:
        fdef.args, fdef.body = _Mangle(cls).visit(fdef.args), [_Mangle(cls).visit(s) for s in fdef.body]
    # Defaults are the function's own (``_rebound`` sets them): their expressions may name
    # what only the defining scope has (``lambda x, uf=uf: uf(x)`` in a loop).
    args = fdef.args
    args.defaults = [gast.Constant(value=None, kind=None) for _ in args.defaults]
    args.kw_defaults = [None if d is None else gast.Constant(value=None, kind=None)
                        for d in args.kw_defaults]
    fdef = _DictsOfPairs().visit(fdef)
    fdef.body = _lower_lazy_walruses(fdef.body)
    scope = _local_names(fdef) | set(fn.__code__.co_freevars)
    # A dict comprehension or a Counter may key by traced values, and fail otherwise
    # before any key is hashed (a Counter of an array of run-time length).
    dict_comp = any(isinstance(n, gast.DictComp) or _is_counter(n) for n in _own_nodes(fdef))
    _DequesAsLists(fdef).rewrite()
    _ListExtends(fdef).rewrite()
    if KEYED_DICTS.get():
        _SetsAsDicts(fdef).rewrite()
        fdef.body = _hoist_dict_comps(fdef.body)
        _KeyedDicts(fdef, filename, first_line - 1).rewrite()
        _BucketAppends(fdef).rewrite()
    loop_tail_calls(fdef, _CF, filename, first_line - 1)
    _UnboundReads(fdef).rewrite()
    probes = _TryProbes(filename, first_line - 1)
    fdef.body = [probes.visit(st) for st in fdef.body]
    nested = [(node, copy.deepcopy(node), _local_names(node)) for node in gast.walk(fdef)
              if isinstance(node, gast.FunctionDef) and node is not fdef]
    for node, _, _ in nested:
        # A function defined inside has its branches and loops converted with the rest,
        # so its jumps become flags too: called through a wrapper (``lru_cache``,
        # ``partial``, a decorator), it runs as converted here, not converted afresh.
        if not _contains(node, (gast.Yield, gast.YieldFrom), cross_loops=True):
            _Jumps().function(node)
    _Jumps().function(fdef)
    shared = frozenset(_cell_variables(fn.__code__))
    fdef.body = [_ControlFlow(filename, first_line - 1, scope, shared).visit(s)
                 for s in fdef.body]
    fdef.body = [x for s in fdef.body for x in (s if isinstance(s, list) else [s])]
    sites = _WriteSites(filename, first_line - 1)
    fdef.body = [sites.visit(s) for s in fdef.body]
    fdef.body = [_Reads().visit(s) for s in fdef.body]
    outer_locals = _local_names(fdef) - set(fn.__code__.co_freevars)
    for node, original, own in nested:
        leaked = {n for n in _local_names(node) - own if not n.startswith("_nptf__")}
        if not leaked:
            continue
        # The converted body assigns a variable of a function around it (a list it
        # appends to in a branch is the branch's state). A variable of the compiled
        # function itself is declared nonlocal, so the branch's result is that variable;
        # any other (one the compiled function only reads, or another nested function's)
        # would be a local of its own, read before it is bound: the function runs as
        # written (a branch on a traced value is then an nptf error, so NumPy runs).
        if leaked <= outer_locals and not any(leaked & other_own for other, _, other_own in nested
                                               if other is not node):
            declare = gast.Nonlocal(names=sorted(leaked))
            gast.copy_location(declare, node.body[0])
            node.body.insert(0, declare)
            continue
        for field in node._fields:
            setattr(node, field, getattr(original, field))
    freevars = list(fn.__code__.co_freevars)
    if set(freevars) & _local_names(fdef):
        # A variable of an enclosing function that the body mutates in a branch or loop
        # (``seen.append(v)`` under an ``if``) would be that statement's state, which the
        # converted code assigns: a local of its own then, read before it is bound, or,
        # declared nonlocal, a rebinding of the enclosing variable. The function runs as
        # written instead (Python's loops unrolled; a branch on a traced value is an nptf
        # error, so NumPy runs the call), and a change it makes to a container outside
        # the compiled function is found after the trace, as for a global.
        return None
    factory = _stmts(f"def _nptf__factory({', '.join(freevars)}):\n    return {fdef.name}")[0]
    factory.body.insert(0, fdef)
    module = gast.Module(body=[factory], type_ignores=[])
    tree = gast.gast_to_ast(module)
    ast.fix_missing_locations(tree)
    ast.increment_lineno(tree, first_line - 1)
    namespace = _globals_for(fn)
    exec(compile(tree, filename, "exec"), namespace)
    made = namespace["_nptf__factory"]
    made.nptf_dict_comp = dict_comp
    return made


def _refresh(namespace, fn):
    """Bring a conversion's copy of its module's globals up to date with the module: a
    global rebound since (``mod.SCALE = 5.0``) reads as its new value."""
    current = _globals_for(fn)
    for name in [n for n in namespace if n not in current and n != "_nptf__factory"]:
        del namespace[name]
    namespace.update(current)


def _globals_for(fn):
    g = dict(fn.__globals__)
    for name, value in fn.__globals__.items():
        wrapper = namespace.WRAPPER_OF.get(id(value))
        if wrapper is not None:
            g[name] = wrapper
    g[_CF] = control_flow
    g[_CALL] = called
    g[_SE] = side_effects
    g[_IX] = namespace
    g[_TD] = traced_dicts
    g[_LB] = list_buckets
    g[_GL] = growing_lists
    g[_TX] = printing
    return g


def should_convert(fn) -> bool:
    if not isinstance(fn, types.FunctionType):
        return False
    module = (getattr(fn, "__module__", "") or "").split(".")[0]
    if module in _SKIP_MODULES:
        return False
    filename = fn.__code__.co_filename
    return not filename.startswith("<") and not _in_site_packages(filename) and \
        not os.path.abspath(filename).startswith(_STDLIB) and \
        (_class_around(fn) is not None or not _mangled(fn.__code__))


def _class_around(fn):
    """The name of the innermost class whose body defines ``fn`` (from its qualified name:
    a class is a part followed by another name, a function one followed by ``<locals>``)."""
    parts = fn.__qualname__.split(".")
    for i in range(len(parts) - 2, -1, -1):
        if "<locals>" not in (parts[i], parts[i + 1]):
            return parts[i]
    return None


class _Mangle(gast.NodeTransformer):
    """Python's private-name mangling of a class body, for code compiled outside it."""

    def __init__(self, cls):
        self.prefix = "_" + cls.lstrip("_")

    def _name(self, name):
        if name and name.startswith("__") and not name.endswith("__") and self.prefix != "_":
            return self.prefix + name
        return name

    def visit_Name(self, node):
        node.id = self._name(node.id)
        return node

    def visit_Attribute(self, node):
        node.attr = self._name(node.attr)
        return self.generic_visit(node)

    def visit_keyword(self, node):
        node.arg = self._name(node.arg)
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        node.name = self._name(node.name)
        return self.generic_visit(node)


# A private name as Python's compiler mangles it inside a class body (``self.__risk`` is
# ``self._Portfolio__risk``): code converted from its source alone would miss the class.
_MANGLED = re.compile(r"^_[A-Za-z0-9]\w*?__\w*[A-Za-z0-9_](?<!__)$")


def _mangled(code):
    """Whether ``code`` (or a function inside it) uses a private name mangled by a class
    around it; a class defined inside has its own names mangled again when the
    converted source compiles."""
    names = code.co_names + code.co_varnames + code.co_freevars + code.co_cellvars
    return any(_MANGLED.match(n) and not n.startswith("_nptf__") for n in names) or \
        any(isinstance(c, types.CodeType) and c.co_flags & inspect.CO_OPTIMIZED and _mangled(c)
            for c in code.co_consts)


# Python's own library (copy, statistics, functools...) runs as it is, not converted.
_STDLIB = tuple({os.path.join(os.path.abspath(sysconfig.get_paths()[k]), "")
                 for k in ("stdlib", "platstdlib")})


def _in_site_packages(filename):
    return f"{os.sep}site-packages{os.sep}" in filename or f"{os.sep}dist-packages{os.sep}" in filename


def converted(fn):
    """``fn`` converted if it is the user's own Python function (used at every call site);
    a call that makes an array NumPy's namespace cannot swap (``np.ndarray(shape)``, a
    class) goes to its traced version."""
    traced = traced_call(fn)
    if traced is not None:
        return traced
    if isinstance(fn, types.MethodType) and should_convert(fn.__func__):
        # ``model.fit(X)``: the method's body, converted, on the same object.
        converting_members(type(fn.__self__))
        return types.MethodType(convert(fn.__func__), fn.__self__)
    if isinstance(fn, type) and _plain_user_class(fn):
        converting_members(fn)
        return functools.partial(_constructed, fn)
    # A converted function met again (the name of a recursive function, looked up in the
    # converted code's globals) converts as the user's own does, from the cache.
    fn = getattr(fn, "nptf_converted_from", fn)
    if not should_convert(fn):
        return fn
    new = convert(fn)
    if new is fn:
        return new
    return recursion.guarded(new, fn.__code__, fn.__name__)


# Methods Python calls for an operator, a builtin or a subscript of the user's object;
# those that must return a Python bool, number or str (``__bool__``, ``__float__``,
# ``__repr__``) stay the user's own.
_OPERATOR_METHODS = frozenset(
    f"__{p}{name}__" for name in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod",
                                  "pow", "and", "or", "xor", "lshift", "rshift")
    for p in ("", "r", "i")) | frozenset({
        "__neg__", "__pos__", "__abs__", "__invert__", "__eq__", "__ne__", "__lt__", "__le__",
        "__gt__", "__ge__", "__getitem__", "__setitem__", "__call__", "__array__"})


def converting_members(cls):
    """While this trace is on, the properties and operator methods of the user's class
    ``cls`` (``rs.variance``, ``u + w``, ``abs(u)``) run converted, as its methods do
    when called: a traced ``if`` or ``float()`` in them compiles."""
    side_effects.patch_class(cls, _converted_member)


def _converted_member(name, member):
    if isinstance(member, property):
        parts = [member.fget, member.fset, member.fdel]
        if not any(f is not None and should_convert(f) for f in parts):
            return None
        return property(*[convert(f) if f is not None and should_convert(f) else f
                          for f in parts], member.__doc__)
    if name in _OPERATOR_METHODS and should_convert(member):
        return convert(member)
    return None


def _plain_user_class(cls):
    """A class of the user's own whose instances ``object.__new__`` makes and whose
    ``__init__`` is a user function: its constructor can run the converted ``__init__``."""
    return type(cls) is type and cls.__new__ is object.__new__ and \
        should_convert(getattr(cls.__init__, "__func__", cls.__init__))


def _constructed(cls, *args, **kwargs):
    """``cls(*args, **kwargs)`` with ``cls.__init__`` converted (a traced ``if`` in it)."""
    obj = object.__new__(cls)
    convert(cls.__init__)(obj, *args, **kwargs)
    return obj


def called(fn):
    """What a call of ``fn`` in converted code runs (every call site goes through it): for
    Python's builtins that take traced values, control_flow's version; otherwise ``fn``
    as ``converted`` gives it."""
    builtin = control_flow.builtin_call(fn)
    if builtin is not None:
        return builtin
    scipy = scipy_functions.lookup(fn)
    if scipy is not None:
        return scipy
    draw = numpy_random.outside_generator_call(fn)
    if draw is not None:
        return draw
    higher = control_flow.higher_order_call(fn)
    if higher is not None:
        # ``filter``, ``map``, ``itertools.accumulate`` call the user's function from C:
        # here it is called as a call site in converted code would call it.
        return functools.partial(higher, called)
    return converted(fn)
