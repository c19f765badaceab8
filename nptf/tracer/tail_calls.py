"""Tail recursion as a loop.

A function whose only calls of itself are ``return f(...)`` (a recursive bisection, a
binary search, Euclid's gcd, a Newton step that recurses until it converges) is
rewritten before its control flow is converted as

    def f(lo, hi, tol=1e-6):
        _nptf__tail_depth = 0
        while True:
            ...
            if <test>:
                lo, hi, tol = _nptf__cf.tail_arguments(f, (mid, hi, tol), {}, ...)
                _nptf__tail_depth = _nptf__cf.tail_depth(_nptf__tail_depth, ...)
                continue
            ...

so a traced test that ends the recursion is a graph loop's condition, where tracing the
recursion itself could not end. The arguments bind as the call binds them (defaults,
keywords); depth beyond Python's recursion limit is Python's RecursionError (a traced
depth: the call runs with NumPy, which raises it). A function with another call of
itself, a tail call inside a loop, ``try`` or ``with``, a function or lambda defined in
it (its closure would see the rebound parameters), ``*args``/``**kwargs`` or ``yield``
is left as it is."""
from __future__ import annotations

import gast

__all__ = ["loop_tail_calls"]

_DEPTH = "_nptf__tail_depth"
# Statements a tail call may sit in: the loop's ``continue`` must reach the new loop.
_TRANSPARENT = (gast.If,)
_OPAQUE = (gast.For, gast.AsyncFor, gast.While, gast.Try, gast.With, gast.AsyncWith,
           gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)


def loop_tail_calls(fdef, cf_name, filename, line_offset):
    """Rewrites, in place, ``fdef`` and the functions defined in it whose recursion is
    tail calls only."""
    for node in [n for n in gast.walk(fdef) if isinstance(n, gast.FunctionDef)]:
        if _only_tail_calls(node):
            _rewrite(node, cf_name, filename, line_offset)


def _calls_of(node, name):
    return [n for n in gast.walk(node) if isinstance(n, gast.Call) and
            isinstance(n.func, gast.Name) and n.func.id == name]


def _tail_returns(stmts, name):
    """The ``return name(...)`` statements reached through ``if`` blocks only."""
    found = []
    for st in stmts:
        if isinstance(st, gast.Return) and isinstance(st.value, gast.Call) and \
                isinstance(st.value.func, gast.Name) and st.value.func.id == name:
            found.append(st)
        elif isinstance(st, _TRANSPARENT):
            found += _tail_returns(st.body, name) + _tail_returns(st.orelse, name)
    return found


def _only_tail_calls(fdef):
    name, args = fdef.name, fdef.args
    if args.vararg is not None or args.kwarg is not None or fdef.decorator_list:
        return False
    body_nodes = [n for st in fdef.body for n in gast.walk(st)]
    if any(isinstance(n, (gast.Yield, gast.YieldFrom, gast.Await, gast.Global, gast.Nonlocal,
                          gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda,
                          gast.ClassDef)) for n in body_nodes):
        return False
    params = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs}
    if any(isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store) and n.id == name
           for n in body_nodes) or any(isinstance(n, gast.Name) and n.id.startswith("_nptf__")
                                       for n in body_nodes) or name in params:
        return False
    tails = _tail_returns(fdef.body, name)
    calls = [c for st in fdef.body for c in _calls_of(st, name)]
    if not tails or len(calls) != len(tails):
        return False
    # No call of itself inside a tail call's arguments (``return f(f(x))``).
    return all(len(_calls_of(t.value, name)) == 1 for t in tails)


def _falls_off(stmts):
    """Whether running ``stmts`` may reach their end."""
    if not stmts:
        return True
    last = stmts[-1]
    if isinstance(last, (gast.Return, gast.Raise, gast.Continue)):
        return False
    if isinstance(last, gast.If):
        return _falls_off(last.body) or _falls_off(last.orelse)
    return True


class _TailCalls(gast.NodeTransformer):
    def __init__(self, fdef, cf_name, filename, line_offset):
        self.fdef, self.cf = fdef, cf_name
        self.filename, self.line_offset = filename, line_offset
        args = fdef.args
        self.params = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]

    def visit_Return(self, node):
        call = node.value
        if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Name) and
                call.func.id == self.fdef.name):
            return node
        where = f"{self.filename}:{getattr(node, 'lineno', 0) + self.line_offset}"
        targets = ", ".join(self.params)
        code = (f"{targets}{',' if len(self.params) == 1 else ''} = {self.cf}.tail_arguments("
                f"{self.fdef.name}, (), {{}})\n"
                f"{_DEPTH} = {self.cf}.tail_depth({_DEPTH}, {where!r})\n"
                f"continue\n")
        stmts = gast.parse(code).body
        bind = stmts[0].value
        positional = [a for a in call.args]
        bind.args[1] = gast.Tuple(elts=positional, ctx=gast.Load())
        bind.args[2] = gast.Dict(keys=[gast.Constant(value=k.arg, kind=None)
                                       for k in call.keywords if k.arg is not None],
                                 values=[k.value for k in call.keywords if k.arg is not None])
        if any(k.arg is None for k in call.keywords) or \
                any(isinstance(a, gast.Starred) for a in positional):
            # ``f(*rest)`` / ``f(**opts)``: left as the call (refused when it repeats).
            return node
        for st in stmts:
            gast.copy_location(st, node)
            gast.fix_missing_locations(st)
        return stmts

    def visit_If(self, node):
        node.body = self._statements(node.body)
        node.orelse = self._statements(node.orelse)
        return node

    def _statements(self, stmts):
        out = []
        for st in stmts:
            new = self.visit(st)
            out += new if isinstance(new, list) else [new]
        return out


def _rewrite(fdef, cf_name, filename, line_offset):
    rewriter = _TailCalls(fdef, cf_name, filename, line_offset)
    body = rewriter._statements(fdef.body)
    if _falls_off(body):
        body.append(gast.Return(value=gast.Constant(value=None, kind=None)))
    start, loop = gast.parse(f"{_DEPTH} = 0\nwhile True:\n    pass\n").body
    loop.body = body
    for st in (start, loop):
        gast.copy_location(st, fdef.body[0])
        gast.fix_missing_locations(st)
    fdef.body = [start, loop]
