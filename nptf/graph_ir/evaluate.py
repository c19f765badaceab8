"""A NumPy reference interpreter for graphs: the executable meaning of each op.

Used by tests to check the tracer and every pass against NumPy without
TensorFlow. Weak values are handed to NumPy as Python scalars, so NEP 50
promotion happens exactly as it would in the user's program.
"""
from __future__ import annotations

import math

import numpy as np

from .interpret import Interpreter
from .ir import Literal
from .ops import OpTable

EVAL_RULES = OpTable()

# Rules of ops that hold sub-graphs (cond, while): ``fn(run, params, *xs)``, where
# ``run(graph, args)`` runs a sub-graph with the interpreter running the equation.
SUBGRAPH_RULES = OpTable()


def _sized(shape, sizes):
    """``shape`` with its Nones replaced by ``sizes``, in order."""
    sizes = iter(sizes)
    return tuple(int(next(sizes)) if d is None else d for d in shape)


def _item(x):
    return np.asarray(x).item()


def _rule(name):
    def wrap(fn):
        EVAL_RULES[name] = fn
        return fn
    return wrap


def _axes(p):
    return tuple(p["axes"])


_rule("where")(lambda p, c, x, y: np.where(c, x, y))
_rule("convert")(lambda p, x: np.asarray(x).astype(p["dtype"]))
_rule("copy")(lambda p, x: np.array(x))
def _lgamma_or_inf(v):
    try:
        return math.lgamma(v)
    except ValueError:       # a pole: the graph's kernel gives +inf there
        return math.inf


_rule("lgamma")(lambda p, x: np.vectorize(_lgamma_or_inf, otypes=[np.float64])(x))
_rule("erf")(lambda p, x: np.vectorize(math.erfc if p["complement"] else math.erf,
                                       otypes=[np.float64])(x))


def _scipy_special(name):
    # Only graphs of code that called scipy.special's own functions hold these ops.
    import scipy.special
    return getattr(scipy.special, name)


_rule("igamma")(lambda p, a, x: _scipy_special("gammaincc" if p["complement"] else
                                               "gammainc")(a, x))
_rule("betainc")(lambda p, a, b, x: _scipy_special("betainc")(a, b, x))


def _complex(p, re, im):
    re, im = np.broadcast_arrays(np.asarray(re), np.asarray(im))
    out = np.empty(re.shape, np.result_type(re.dtype, im.dtype, np.complex64))
    out.real, out.imag = re, im
    return out


_rule("complex")(_complex)
_rule("real")(lambda p, x: np.real(x))
_rule("imag")(lambda p, x: np.imag(x))


@_rule("broadcast_to")
def _broadcast_to(p, x, *others):
    # ``implicit`` (see passes.implicit_broadcasts) does not change the value.
    x = np.asarray(x)
    if others:
        # Operands after the first (implicit_broadcasts writes them): the shape is theirs
        # and the first one's broadcast together.
        return np.broadcast_to(x, np.broadcast_shapes(x.shape, *map(np.shape, others)))
    # An unknown dimension takes the operand's run-time size. Where the operand has
    # size 1 there, the size lives in another operand of the elementwise op this
    # feeds (only the broadcast pass writes None here), so it stays 1 and
    # broadcasts there, as in the TensorFlow lowering.
    lead = len(p["shape"]) - x.ndim
    shape = tuple(d if d is not None else 1 if i < lead else x.shape[i - lead]
                  for i, d in enumerate(p["shape"]))
    return np.broadcast_to(x, shape)


@_rule("reshape")
def _reshape(p, x):
    shape = p["shape"]
    if list(shape).count(None) <= 1:
        return np.reshape(x, [-1 if d is None else d for d in shape])
    # Several unknown dimensions: only size-1 axes are inserted or removed, so the
    # input's sizes other than 1 fill the target's dimensions other than 1, in order.
    # Without the input's static type, an unknown dimension that is 1 at run time
    # could sit in any of them; that case is refused rather than guessed.
    sizes = [d for d in np.shape(x) if d != 1]
    if not sizes:
        return np.reshape(x, [1 if d is None else d for d in shape])
    if len(sizes) != sum(d != 1 for d in shape):
        raise NotImplementedError(f"reshape of shape {np.shape(x)} to {shape}: with several "
                                  "unknown sizes, only size-1 axes can be inserted or removed, "
                                  "and which ones is ambiguous here")
    sizes = iter(sizes)
    return np.reshape(x, [1 if d == 1 else next(sizes) for d in shape])


_rule("transpose")(lambda p, x: np.transpose(x, p["perm"]))


def slice_index(slices):
    """The basic index a ``slice`` op's ``slices`` param stands for."""
    return tuple(slice(None) if s is None else slice(*s[1:]) if s[0] == "raw" else slice(*s)
                 for s in slices)


_rule("slice")(lambda p, x: np.asarray(x)[slice_index(p["slices"])])
_rule("concatenate")(lambda p, *xs: np.concatenate(xs, axis=p["axis"]))
_rule("tile")(lambda p, x: np.tile(x, p["reps"]))
_rule("repeat")(lambda p, x: np.repeat(x, p["repeats"], axis=p["axis"]))
_rule("reduce_sum")(lambda p, x: np.sum(x, _axes(p), dtype=p["dtype"], keepdims=p["keepdims"]))
_rule("reduce_prod")(lambda p, x: np.prod(x, _axes(p), dtype=p["dtype"], keepdims=p["keepdims"]))
_rule("mean")(lambda p, x: np.mean(x, _axes(p), dtype=p["dtype"], keepdims=p["keepdims"]))
_rule("var")(lambda p, x: np.var(x, _axes(p), keepdims=p["keepdims"], ddof=p["ddof"]).astype(p["dtype"]))
_rule("std")(lambda p, x: np.std(x, _axes(p), keepdims=p["keepdims"], ddof=p["ddof"]).astype(p["dtype"]))
_rule("reduce_max")(lambda p, x: np.max(x, _axes(p), keepdims=p["keepdims"]))
_rule("reduce_min")(lambda p, x: np.min(x, _axes(p), keepdims=p["keepdims"]))
_rule("reduce_all")(lambda p, x: np.all(x, _axes(p), keepdims=p["keepdims"]))
_rule("reduce_any")(lambda p, x: np.any(x, _axes(p), keepdims=p["keepdims"]))
_rule("argmax")(lambda p, x: np.argmax(x, p["axes"][0], keepdims=p["keepdims"]))
_rule("argmin")(lambda p, x: np.argmin(x, p["axes"][0], keepdims=p["keepdims"]))
_rule("reduceat")(lambda p, x: getattr(np, p["ufunc"]).reduceat(
    x, np.asarray(p["indices"], np.intp), axis=0, dtype=x.dtype))
_rule("cumsum")(lambda p, x: np.cumsum(x, p["axis"], dtype=p["dtype"]))
_rule("cumprod")(lambda p, x: np.cumprod(x, p["axis"], dtype=p["dtype"]))
_rule("accumulate")(lambda p, x: getattr(np, p["ufunc"]).accumulate(x, p["axis"], x.dtype))
_rule("matmul")(lambda p, a, b: np.matmul(a, b))
_rule("einsum")(lambda p, *xs: np.einsum(p["subscripts"], *xs))
_rule("full")(lambda p: np.full(p["shape"], p["fill"], p["dtype"]))
_rule("reshape_sized")(lambda p, x, *sizes: np.reshape(x, _sized(p["shape"], sizes)))
_rule("bitcast")(lambda p, x: np.ascontiguousarray(x).view(p["dtype"]))
_rule("full_sized")(lambda p, *sizes: np.full(_sized(p["shape"], sizes), p["fill"], p["dtype"]))
_rule("arange_traced")(lambda p, start, stop, step: np.arange(
    _item(start), _item(stop), _item(step), dtype=p["dtype"]))
_rule("full_like")(lambda p, x: np.full(np.shape(x), p["fill"], p["dtype"]))
_rule("arange")(lambda p: p["start"] + np.arange(p["num"]).astype(p["dtype"]) * p["step"]
                if np.dtype(p["dtype"]).kind in "fc"
                else np.arange(p["start"], p["start"] + p["num"] * p["step"], p["step"], p["dtype"]))
_rule("eye")(lambda p: np.eye(p["n"], p["m"], p["k"], p["dtype"]))


def subgraph_rule(name):
    """Registers a rule of ``SUBGRAPH_RULES``; ``EVAL_RULES`` gets it with ``evaluate``
    running the sub-graphs."""
    def wrap(fn):
        SUBGRAPH_RULES[name] = fn
        EVAL_RULES[name] = lambda p, *xs: fn(_evaluate_subgraph, p, *xs)
        return fn
    return wrap


def _evaluate_subgraph(graph, args):
    return evaluate(graph, *args)


def evaluate_eqn(eqn, xs):
    """The output values of one equation applied to NumPy values ``xs``, as a tuple."""
    if eqn.op.kind == "elementwise" and eqn.op.ufunc is not None:
        outs = eqn.op.ufunc(*xs)
    else:
        outs = EVAL_RULES[eqn.op](eqn.params, *xs)
    return outs if isinstance(outs, tuple) else (outs,)


class Evaluator(Interpreter):
    """Values are NumPy arrays; weak ones read as Python scalars."""

    rules = EVAL_RULES

    def run(self, graph, *args):
        with np.errstate(all="ignore"):
            return super().run(graph, *args)

    def value(self, var, stored):
        return np.asarray(stored).item() if var.type.weak else stored

    def read_output(self, atom):
        # An output nothing defines (a graph run on fewer arguments than it takes) is None.
        if isinstance(atom, Literal) or atom in self.env:
            return self.read(atom)
        return None

    def write(self, outputs, values):
        super().write(outputs, [np.asarray(v) for v in values])

    def run_eqn(self, eqn, xs):
        fn = SUBGRAPH_RULES.get(eqn.op)
        if fn is None:
            return evaluate_eqn(eqn, xs)
        outs = fn(self.run_subgraph, eqn.params, *xs)
        return outs if isinstance(outs, tuple) else (outs,)


def evaluate(graph, *args):
    """Run ``graph`` on NumPy values; returns the list of output values."""
    return Evaluator().run(graph, *args)
