"""Slices whose length is a loop value, read at their longest and masked.

``A[i, :j] @ A[:j, j]`` in a loop over ``j`` traces as a ``dynamic_slice`` whose
size is known only at run time. The plain executor runs such a loop at about
10 us an iteration, and XLA either refuses the slice or pads it behind the scenes
at a similar cost, while the same loop with every slice at its longest and the
elements past ``j`` masked runs at a fraction of a microsecond an iteration.

``pad_bounded_slices`` rewrites the loop bodies' slices of one axis whose length
varies (at most that axis' static size ``N``): it reads ``N`` elements from the
slice's start instead (``padded`` values, valid in their first ``L`` elements)
and carries them through the equations that never mix elements of that axis:
elementwise ops, broadcasts, the reshapes that only add or drop unit dimensions,
cumulative sums. Where the elements meet (a ``matmul`` over that axis, a sum,
product, max, min, any or all along it) the invalid elements are replaced by the
operation's identity first, with ``where`` (never a multiplication, so infinities
and NaN past the slice do not leak in); ``x.shape[k]`` of a padded value is ``L``.
Every other use keeps the original slice, so the rewrite never changes what a
graph computes; once no use is left, the dynamic slice is dead code and the loop
compiles under XLA.

Two padded operands meet only if their lengths are the same IR value (the
tracer's size arithmetic, merged by ``eliminate_common_subexpressions``):
NumPy's broadcasting of a run-time length 1 against another length cannot be told
apart otherwise. Integer ops that may divide by zero are not carried, so garbage
past the slice cannot raise. Only loop bodies are rewritten: that is where a slice's
length changes from one run to the next, and where the graphs have no NumPy
program (which would warn about arithmetic on the garbage).
"""
from __future__ import annotations

import math

import numpy as np

from ..ir import Eqn, Literal, Var, literal, map_subgraphs
from ..ops import OPS
from ..types import ArrayType
from .rewrite import PassRules, rewrite_eqns

_INTP = np.dtype(np.intp)

# reduce op -> its identity for a dtype
_IDENTITY = {
    "reduce_sum": lambda dt: 0,
    "reduce_prod": lambda dt: 1,
    "reduce_any": lambda dt: False,
    "reduce_all": lambda dt: True,
    "reduce_max": lambda dt: -np.inf if dt.kind in "fc" else
    (False if dt.kind == "b" else np.iinfo(dt).min),
    "reduce_min": lambda dt: np.inf if dt.kind in "fc" else
    (True if dt.kind == "b" else np.iinfo(dt).max),
}


class _Padded:
    """A value of the original graph as ``var``: its ``axis`` at its static bound, the
    first ``length`` elements valid (``length`` None: a broadcast, valid everywhere)."""

    __slots__ = ("var", "axis", "length")

    def __init__(self, var, axis, length):
        self.var, self.axis, self.length = var, axis, length


# ``pad_bounded_slices``'s rules outside loop bodies: a loop's body is padded.
_OUTSIDE = PassRules()


@_OUTSIDE.register("while", subgraphs=True)
def _pad_loop(eqn, rw):
    return [map_subgraphs(eqn, _pad_body)]


def pad_bounded_slices(graph):
    return rewrite_eqns(graph, _OUTSIDE, subgraphs=pad_bounded_slices).replace(
        stage="pad_bounded_slices")


def _pad_body(graph):
    return rewrite_eqns(graph, _PAD, subgraphs=_pad_body, state=_Padder())


class _Padder:
    """A loop body's padded values as its rewrite goes (``rw.state`` of the rules)."""

    def __init__(self):
        self.padded = {}          # original Var -> _Padded
        self.masks = {}
        self.rw = None            # the rewrite of the body, set by each rule

    # ------------------------------------------------------------- helpers
    def _add(self, eqn):
        self.rw.add(eqn)

    def _emit(self, name, inputs, params, src, outputs=None):
        op = OPS[name]
        if outputs is None:
            types = op.type_rule([a.type for a in inputs], params)
            outputs = tuple(Var(t) for t in types)
        self._add(Eqn(op, tuple(inputs), params, tuple(outputs), src))
        return outputs[0]

    def _entry(self, vector, k, src):
        """Element ``k`` of a run-time int vector, as a scalar atom: the scalar the vector
        was built from where the graph shows it (so that two slices of one length share
        it), else a slice of the vector."""
        known = self._known_entry(vector, k)
        if known is not None:
            return known
        part = self._emit("slice", [vector], {"slices": ((k, k + 1, 1),)}, src)
        return self._emit("reshape", [part], {"shape": ()}, src)

    def _known_entry(self, vector, k):
        """Element ``k`` of ``vector`` as the literal or scalar var it was built from (by
        ``concatenate`` of ``reshape``s, as the tracer builds sizes), else None."""
        if isinstance(vector, Literal):
            return literal(np.asarray(vector.value).reshape(-1)[k])
        eqn = self.rw.made.get(vector)
        if eqn is None or eqn.op.name != "concatenate":
            return None
        for part in eqn.inputs:
            n = part.type.shape[0] if part.type.ndim == 1 else None
            if n is None:
                return None
            if k < n:
                if isinstance(part, Literal):
                    return literal(np.asarray(part.value).reshape(-1)[k])
                inner = self.rw.made.get(part)
                if inner is not None and inner.op.name == "reshape" and \
                        inner.inputs[0].type.shape == ():
                    return inner.inputs[0]
                return None
            k -= n
        return None

    def _starts_at_zero(self, begin, axis):
        entry = self._known_entry(begin, axis)
        return isinstance(entry, Literal) and entry.value == 0

    def _mask(self, p, shape, src):
        """A bool array of ``shape``: true in the first ``p.length`` entries of ``p.axis``."""
        key = (p.length, p.axis, shape)
        if key not in self.masks:
            n = shape[p.axis]
            iota_shape = tuple(n if i == p.axis else 1 for i in range(len(shape)))
            iota = literal(np.arange(n, dtype=_INTP).reshape(iota_shape))
            length = p.length
            if length.type.dtype != _INTP or length.type.weak:
                length = self._emit("convert", [length], {"dtype": _INTP}, src)
            length = self._emit("broadcast_to", [length], {"shape": iota_shape}, src)
            small = self._emit("less", [iota, length], {}, src)
            self.masks[key] = small if iota_shape == shape else \
                self._emit("broadcast_to", [small], {"shape": shape}, src)
        return self.masks[key]

    def _masked(self, p, fill, src):
        """``p``'s value with ``fill`` past its length."""
        shape, dtype = p.var.type.shape, p.var.type.dtype
        mask = self._mask(p, shape, src)
        filler = self._emit("broadcast_to", [literal(np.asarray(fill, dtype))],
                            {"shape": shape}, src)
        return self._emit("where", [mask, p.var, filler], {}, src)

    # ------------------------------------------------------------- rules
    def _read(self, eqn):
        x, begin = eqn.inputs[:2]
        sizes = eqn.params["sizes"]
        if len(eqn.inputs) != 3 or sizes.count(None) != 1:
            return
        axis = sizes.index(None)
        bound = x.type.shape[axis]
        if bound is None or any(d is None for d in x.type.shape) or x.type.dtype.kind not in "biufc":
            return
        src = eqn.source_info
        length = self._entry(eqn.inputs[2], axis, src)
        static = tuple(bound if s is None else s for s in sizes)
        if not self._starts_at_zero(begin, axis):
            # Past the end of the axis: zeros, so that N elements can be read from any start.
            pad_shape = tuple(bound if i == axis else d for i, d in enumerate(x.type.shape))
            zeros = self._emit("full", [], {"shape": pad_shape, "dtype": x.type.dtype,
                                            "fill": 0}, src)
            x = self._emit("concatenate", [x, zeros], {"axis": axis}, src)
        out = self._emit("dynamic_slice", [x, begin], {"sizes": static}, src)
        self.padded[eqn.outputs[0]] = _Padded(out, axis, length)

    def _broadcast(self, eqn, p):
        shape = eqn.params["shape"]
        x = eqn.inputs[0]
        if p is not None or shape.count(None) != 1 or None in x.type.shape:
            return
        axis = shape.index(None)
        if x.type.ndim >= len(shape) - axis and x.type.shape[axis - len(shape)] != 1:
            return
        # A broadcast into a run-time length: its bound comes from the padded value it
        # meets, so it is recorded without one and made when an elementwise op meets one.
        self.padded[eqn.outputs[0]] = _Padded(None, axis, None)

    def _elementwise(self, eqn, ins):
        out_shape = eqn.outputs[0].type.shape
        known = [p for p in ins if p is not None and p.var is not None]
        if not known or any(p is None for p in ins):
            return
        axis, bound = known[0].axis, known[0].var.type.shape[known[0].axis]
        lengths = {id(p.length): p.length for p in ins if p.length is not None}
        if len(lengths) != 1 or any(p.axis != axis for p in ins) or \
                any(p.var is not None and p.var.type.shape[axis] != bound for p in ins) or \
                out_shape.count(None) != 1 or out_shape.index(None) != axis:
            return
        if eqn.op.may_raise_on_ints and \
                any(a.type.dtype.kind in "iub" for a in eqn.inputs):
            return
        shape = tuple(bound if i == axis else d for i, d in enumerate(out_shape))
        args = []
        for a, p in zip(eqn.inputs, ins):
            if p.var is None:   # the broadcast, made now that its bound is known
                source = self.rw.made[a].inputs[0]
                args.append(self._emit("broadcast_to", [source], {"shape": shape},
                                       eqn.source_info))
            else:
                args.append(p.var)
        outs = tuple(Var(ArrayType(shape, v.type.dtype, v.type.weak))
                     for v in eqn.outputs)
        self._emit(eqn.op.name, args, eqn.params, eqn.source_info, outputs=outs)
        length = next(iter(lengths.values()))
        for v, o in zip(eqn.outputs, outs):
            self.padded[v] = _Padded(o, axis, length)

    def _along(self, eqn, p):
        """Ops that keep the elements of the padded axis apart."""
        if p.var is None:
            return
        name, (out,) = eqn.op.name, eqn.outputs
        src_shape, out_shape = eqn.inputs[0].type.shape, out.type.shape
        bound = p.var.type.shape[p.axis]
        params = eqn.params
        if out_shape.count(None) != 1:
            return
        axis = out_shape.index(None)
        if name == "slice":
            if axis != p.axis:
                return
            if params["slices"][p.axis] == ("raw", None, None, -1):
                self._reversed(eqn, p)
                return
            if params["slices"][p.axis] is not None:
                return
        elif name == "reshape":
            if src_shape.count(None) != 1 or \
                    math.prod(src_shape[:p.axis]) != math.prod(out_shape[:axis]) or \
                    math.prod(src_shape[p.axis + 1:]) != math.prod(out_shape[axis + 1:]):
                return
            params = {**params, "shape": tuple(bound if i == axis else d
                                               for i, d in enumerate(out_shape))}
        elif axis != p.axis:
            return
        self.padded[out] = _Padded(self._emit(name, [p.var] + list(eqn.inputs[1:]), params,
                                              eqn.source_info), axis, p.length)

    def _reversed(self, eqn, p):
        """``x[::-1]`` along the padded axis (``np.flip``): the first ``length`` elements
        reversed, by a gather from ``length - 1`` down."""
        src, (out,) = eqn.source_info, eqn.outputs
        if p.length is None or any(s is not None for i, s in enumerate(eqn.params["slices"])
                                   if i != p.axis):
            return
        bound = p.var.type.shape[p.axis]
        length = p.length
        if length.type.dtype != _INTP or length.type.weak:
            length = self._emit("convert", [length], {"dtype": _INTP}, src)
        last = self._emit("subtract", [length, literal(np.asarray(1, _INTP))], {}, src)
        last = self._emit("broadcast_to", [last], {"shape": (bound,)}, src)
        down = self._emit("subtract", [last, literal(np.arange(bound, dtype=_INTP))], {}, src)
        down = self._emit("maximum", [down, literal(np.zeros(bound, _INTP))], {}, src)
        self.padded[out] = _Padded(self._emit("take", [p.var, down], {"axis": p.axis}, src),
                                   p.axis, p.length)

    def _mean(self, eqn, p):
        """A mean along the padded axis alone: the masked sum over the length."""
        if p.var is None or p.length is None or tuple(eqn.params["axes"]) != (p.axis,) or \
                p.var.type.dtype != eqn.params["dtype"] or p.var.type.dtype.kind not in "fc":
            return None
        src, (out,) = eqn.source_info, eqn.outputs
        masked = self._masked(p, 0, src)
        total = self._emit("reduce_sum", [masked], {**eqn.params}, src)
        count = self._emit("convert", [p.length], {"dtype": total.type.dtype}, src)
        count = self._emit("broadcast_to", [count], {"shape": total.type.shape}, src) \
            if total.type.shape != () else count
        self._add(Eqn(OPS["divide"], (total, count), {}, (out,), src))
        return []

    def _dim(self, eqn, p):
        (out,) = eqn.outputs
        return [Eqn(OPS["convert"], (p.length,), {"dtype": out.type.dtype, "weak": out.type.weak},
                    (out,), eqn.source_info)]

    def _reduce(self, eqn, p):
        if p.var is None or p.length is None:
            return None
        name, axes = eqn.op.name, eqn.params["axes"]
        if p.axis not in axes or (name in ("reduce_max", "reduce_min") and
                                  p.var.type.dtype.kind == "c"):
            return None   # the padded axis survives: the original stays
        fill = _IDENTITY[name](p.var.type.dtype)
        masked = self._masked(p, fill, eqn.source_info)
        return self._replace(eqn, [masked] + list(eqn.inputs[1:]))

    def _matmul(self, eqn, ins):
        pa, pb = ins
        a, b = eqn.inputs
        if pa is None or pb is None or pa.var is None or pb.var is None or \
                pa.length is None or pa.length is not pb.length or \
                pa.axis != a.type.ndim - 1 or pb.axis != b.type.ndim - 2 or \
                None in eqn.outputs[0].type.shape:
            return None
        src = eqn.source_info
        return self._replace(eqn, [self._masked(pa, 0, src), self._masked(pb, 0, src)])

    def _check(self, eqn, p):
        """A check of a padded value checks the padded value (it still runs); the original
        value passes on unchecked, to the uses that need it, if any."""
        (out,) = eqn.outputs
        checked = self._emit("check", [p.var] + list(eqn.inputs[1:]), eqn.params,
                             eqn.source_info)
        self.padded[out] = _Padded(checked, p.axis, p.length)
        return [Eqn(OPS["copy"], (eqn.inputs[0],), {}, (out,), eqn.source_info)]

    def _write(self, eqn, p):
        """``base`` with a padded value's first ``length`` elements written at ``begin``: the
        region at its longest, read, merged and written back (past the end of the axis
        into zeros, cut off after)."""
        if p.var is None or p.length is None or p.axis >= eqn.inputs[0].type.ndim:
            return None
        base, _, begin = eqn.inputs
        (out,) = eqn.outputs
        if any(d is None for d in base.type.shape):
            return None
        src, axis = eqn.source_info, p.axis
        bound = base.type.shape[axis]
        value, have = p.var, p.var.type.shape[axis]
        if have > bound:        # (the value is no longer than the region: checked)
            cut = tuple((0, bound, 1) if i == axis else None for i in range(base.type.ndim))
            value = self._emit("slice", [value], {"slices": cut}, src)
        elif have < bound:
            more = tuple(bound - have if i == axis else d for i, d in enumerate(value.type.shape))
            zeros = self._emit("full", [], {"shape": more, "dtype": value.type.dtype, "fill": 0},
                               src)
            value = self._emit("concatenate", [value, zeros], {"axis": axis}, src)
        p = _Padded(value, axis, p.length)
        padded = not self._starts_at_zero(begin, axis)
        target = base
        if padded:
            zeros = self._emit("full", [], {"shape": base.type.shape, "dtype": base.type.dtype,
                                            "fill": 0}, src)
            target = self._emit("concatenate", [base, zeros], {"axis": axis}, src)
        region = self._emit("dynamic_slice", [target, begin], {"sizes": p.var.type.shape}, src)
        mask = self._mask(p, p.var.type.shape, src)
        merged = self._emit("where", [mask, p.var, region], {}, src)
        if not padded:
            self._add(Eqn(OPS["dynamic_update_slice"], (target, merged, begin), {}, (out,), src))
            return []
        written = self._emit("dynamic_update_slice", [target, merged, begin], {}, src)
        cut = tuple((0, bound, 1) if i == axis else None for i in range(base.type.ndim))
        self._add(Eqn(OPS["slice"], (written,), {"slices": cut}, (out,), src))
        return []

    def _replace(self, eqn, inputs):
        """``eqn`` on ``inputs``, defining its own outputs (the masked equations before it
        are already added)."""
        self._add(eqn.replace(inputs=tuple(inputs)))
        return []


# The rules of loop bodies: ``rule(padder, eqn, padded inputs)`` gives the equations
# replacing ``eqn`` (None: ``eqn`` stays), after recording any padded value it gives.
# Elementwise ops have the default rule.
_PAD = PassRules()


def _pad_rule(*names, unpadded=False):
    """Registers a rule for ``names`` (None: the default rule); ``unpadded``: it runs when
    no input is padded too."""
    def wrap(fn):
        def rule(eqn, rw):
            padder = rw.state
            padder.rw = rw
            ins = [padder.padded.get(a) if isinstance(a, Var) else None for a in eqn.inputs]
            if not unpadded and not any(ins):
                return None
            return fn(padder, eqn, ins)
        if names == (None,):
            _PAD.default = rule
        else:
            _PAD.register(*names)(rule)
        return fn
    return wrap


@_pad_rule("dynamic_slice", unpadded=True)
def _slice_read(padder, eqn, ins):
    padder._read(eqn)


@_pad_rule("broadcast_to", unpadded=True)
def _broadcast_read(padder, eqn, ins):
    padder._broadcast(eqn, ins[0])


@_pad_rule(None)
def _elementwise_op(padder, eqn, ins):
    if eqn.op.kind == "elementwise":
        padder._elementwise(eqn, ins)


@_pad_rule("slice", "reshape", "cumsum", "cumprod", "copy", "full_like")
def _along_axis(padder, eqn, ins):
    padder._along(eqn, ins[0])


@_pad_rule("dim")
def _length(padder, eqn, ins):
    if ins[0].axis == eqn.params["axis"] and ins[0].length is not None:
        return padder._dim(eqn, ins[0])
    return None


@_pad_rule(*_IDENTITY)
def _reduction(padder, eqn, ins):
    return padder._reduce(eqn, ins[0])


@_pad_rule("mean")
def _masked_mean(padder, eqn, ins):
    return padder._mean(eqn, ins[0])


@_pad_rule("matmul")
def _masked_matmul(padder, eqn, ins):
    return padder._matmul(eqn, ins)


@_pad_rule("check")
def _padded_check(padder, eqn, ins):
    if ins[0] is not None and ins[0].var is not None:
        return padder._check(eqn, ins[0])
    return None


@_pad_rule("dynamic_update_slice")
def _padded_write(padder, eqn, ins):
    if ins[1] is not None and ins[0] is None:
        return padder._write(eqn, ins[1])
    return None
