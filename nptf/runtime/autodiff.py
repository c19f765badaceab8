"""Gradients of unmodified NumPy code: ``nptf.grad``, ``value_and_grad``, ``jacobian``,
``hessian``.

The function is traced and lowered as ``nptf.compile`` does it (loops, in-place
writes, indexing and all), and TensorFlow's ``GradientTape`` differentiates the
graph. Names and behaviour follow JAX's transforms: ``argnums`` picks the arguments
(an int or a tuple of ints), ``has_aux`` lets the function return ``(value, aux)``.
A gradient has its argument's structure, shape and dtype (a Python float's is a
Python float). One TensorFlow function per input signature is cached, as
``compile`` caches graphs.
"""
from __future__ import annotations

import functools
import inspect
import threading

import numpy as np
import tensorflow as tf

from ..errors import ArgumentError, UnsupportedError, with_location
from ..graph_ir import ArrayType, Var
from ..lowering import checked_runner, missing_gradients
from ..tracer import Tracer
from ..tracer.builder import current_builder, outside_trace
from ..tracer.tracer import emit
from ..tree import unflatten
from .calls import closed_graph, evaluate_callee
from .compiled import Compiled, Entry
from .entry import compiled_of, numpy_function_of

class _Transformed:
    """``fn`` differentiated with respect to ``argnums``: ``kind`` is "grad",
    "value_and_grad", "jacobian" or "hessian"."""

    def __init__(self, fn, kind, argnums=0, has_aux=False, static_argnames=(),
                 static_argnums=(), input_signature=None):
        # A transform's result (nptf.grad(f), nptf.vmap(f)) is traced as any function:
        # its call is one op of the graph differentiated.
        source = compiled_of(fn)
        if input_signature is None and source is not None:
            input_signature = source.input_signature
        fn, static_argnames = numpy_function_of(fn, static_argnames, kind)
        self.kind = self.nptf_transform = kind
        self.has_aux = bool(has_aux)
        self.argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        if not self.argnums or not all(isinstance(a, int) for a in self.argnums):
            raise TypeError(f"argnums must be an int or a tuple of ints, got {argnums!r}")
        self.compiled = Compiled(fn, static_argnames=static_argnames,
                                 static_argnums=static_argnums, fallback="raise",
                                 adaptive=False, jit_compile=False,
                                 input_signature=input_signature)
        self._params = list(inspect.signature(fn).parameters)
        params = self._params
        for a in self.argnums:
            if not -len(params) <= a < len(params):
                raise ValueError(f"argnums {a} is out of range for {self.compiled.name}, "
                                 f"which has {len(params)} parameters")
        self._cache = {}
        self._lock = threading.RLock()
        functools.update_wrapper(self, fn, updated=())   # its own attributes stay

    def __call__(self, *args, **kwargs):
        key, values, specs, treedefs, bound = self.compiled.signature_for(args, kwargs)
        key, specs = self.compiled.signature_specs(key, specs)
        if current_builder() is not None:
            # Called while a function is traced (a compiled training step, the outer
            # function of nptf.grad(...) of a gradient): one op of that graph. Not
            # cached: the function may read the calling trace's arrays.
            return self._plan(bound, specs, treedefs).called(values)
        with self._lock:
            plan = self._cache.get(key)
            if plan is None:
                plan = self._cache[key] = self._plan(bound, specs, treedefs)
        return plan.run(self.compiled, values)

    # ------------------------------------------------------------------ build
    def plan(self, bound, specs, treedefs):
        """The TensorFlow function of one signature (its ``differentiated`` builds the
        outputs and derivatives of given input tensors)."""
        return self._plan(bound, specs, treedefs)

    def _plan(self, bound, specs, treedefs):
        name = self.compiled.name
        traced = self.compiled.trace_for(bound, specs, treedefs)
        graph, captured = closed_graph(traced)
        # Graph inputs per parameter: the argument's dynamic leaves, in order.
        names = list(bound.arguments)
        at, inputs_of, trees = 0, {}, {}
        leaf_at = 0
        for n, td in zip(names, treedefs):
            count = td.num_leaves
            leaf_specs = specs[leaf_at:leaf_at + count]
            leaf_at += count
            dynamic = [isinstance(s, tuple) and s and isinstance(s[0], ArrayType)
                       for s in leaf_specs]
            inputs_of[n] = (list(range(at, at + sum(dynamic))), dynamic, leaf_specs)
            trees[n] = td
            at += sum(dynamic)
        params = self._params
        wrt, parts = [], []
        for a in self.argnums:
            pname = params[a]
            if pname not in inputs_of or not inputs_of[pname][0] or \
                    not all(inputs_of[pname][1]):
                raise ArgumentError(
                    f"nptf.{self.kind}: argument {pname!r} of {name} is not an array of "
                    f"floats (nor a tuple, list or dict of them): nothing to differentiate. "
                    f"Pass floats there, or choose other argnums.")
            positions, _, leaf_specs = inputs_of[pname]
            for i, s in zip(positions, leaf_specs):
                dtype = s[0].dtype
                if dtype.kind != "f":
                    raise ArgumentError(
                        f"nptf.{self.kind} requires real floating-point inputs, but argument "
                        f"{pname!r} of {name} has dtype {dtype} (as jax.grad). Pass floats: "
                        f"x.astype(np.float64).")
            wrt += positions
            parts.append((pname, positions, trees[pname], leaf_specs))
        targets = self._targets(traced, graph)
        with outside_trace():
            return self._checked_plan(traced, graph, wrt, targets, parts, captured)

    def _checked_plan(self, traced, graph, wrt, targets, parts, captured):
        name = self.compiled.name
        missing = missing_gradients(graph, [graph.inputs[i] for i in wrt],
                                    [graph.outputs[t] for t in targets])
        if missing:
            eqn, why = missing[0]
            what = eqn.op.numpy_call(eqn.params)
            raise with_location(UnsupportedError(
                f"nptf.{self.kind} of {name}: {what} has no gradient ({why}), so the "
                f"derivative through it would be silently zero. Compute that part outside "
                f"the differentiated function, or express it with differentiable NumPy "
                f"operations."), eqn.source_info)
        return _Plan(self.kind, traced, graph, wrt, targets, parts, self.has_aux,
                     f"nptf.{self.kind}({name})", captured)

    def _targets(self, traced, graph):
        """The graph outputs of the value differentiated: the function's result, or the
        first of ``(value, aux)``; a Jacobian's, the leaves of a tuple, list or dict."""
        name = self.compiled.name
        infos = traced.out_info
        if self.kind == "jacobian" and not self.has_aux and traced.out_tree.kind != "leaf":
            for info, out in zip(infos, graph.outputs):
                if info.kind not in ("array", "scalar", "pyscalar") or \
                        out.type.dtype.kind != "f":
                    raise TypeError(f"nptf.jacobian: every value {name} returns must be a "
                                    f"float array computed from its arguments")
            if len(infos) != len(graph.outputs):
                raise TypeError(f"nptf.jacobian: the values {name} returns must be arrays")
            return list(range(len(infos)))
        if self.has_aux:
            if traced.out_tree.kind not in ("tuple", "list") or \
                    len(traced.out_tree.children) != 2:
                raise TypeError(f"nptf.{self.kind}(..., has_aux=True): {name} must return a "
                                f"pair (value, aux)")
            if traced.out_tree.children[0].kind != "leaf":
                raise TypeError(f"nptf.{self.kind}(..., has_aux=True): the value {name} "
                                f"returns first must be an array, not a container")
        elif traced.out_tree.kind != "leaf":
            raise TypeError(f"nptf.{self.kind}: {name} must return one array (or use "
                            f"has_aux=True to return (value, aux))")
        info = infos[0]
        if info.kind in ("static", "by_kind", "list", "items"):
            raise TypeError(f"nptf.{self.kind}: the value {name} returns must be a float "
                            f"array computed from its arguments, not {info.kind} output")
        t = graph.outputs[0].type
        if t.dtype.kind != "f":
            raise TypeError(f"nptf.{self.kind} requires a real floating-point output, but "
                            f"{name} returns dtype {t.dtype}")
        if self.kind in ("grad", "value_and_grad", "hessian") and t.shape != ():
            raise TypeError(f"nptf.{self.kind}: {name} must return a scalar, got shape "
                            f"{t.shape}; use nptf.jacobian for array outputs")
        return [0]


class _Plan:
    """One signature's TensorFlow function: the graph's outputs, then the derivatives.
    Called inside another trace, it is the callee of a ``call`` op (graph_ir.ops_calls)."""

    def __init__(self, kind, traced, graph, wrt, targets, parts, has_aux, name, captured):
        self.kind, self.traced, self.graph, self.wrt, self.parts = kind, traced, graph, wrt, parts
        self.has_aux, self.name, self.captured, self.targets = has_aux, name, captured, targets
        ins = [graph.inputs[i].type for i in wrt]
        if kind == "hessian":
            derivs = [ArrayType(a.shape + b.shape, b.dtype) for a in ins for b in ins]
        elif kind == "jacobian":
            derivs = [ArrayType(graph.outputs[t].type.shape + a.shape, a.dtype)
                      for t in targets for a in ins]
        else:
            derivs = ins
        self.deriv_types = derivs
        self.out_types = [v.type for v in graph.outputs] + derivs
        run = checked_runner(graph)
        signature = [tf.TensorSpec(v.type.shape, tf.as_dtype(v.type.dtype)) for v in graph.inputs]
        self.entry = Entry(traced, graph)

        def differentiated(*inputs):
            flat, checks = self.tensors(run, list(inputs))
            n = len(flat) - len(derivs)
            outs = flat[:n]
            # The flags of the run-time checks last, as a compiled graph has them.
            self.entry.checks = [(error, message) for _, error, message in checks]
            if checks:
                outs.append(tf.stack([ok for ok, _, _ in checks]))
            return outs, flat[n:]

        # ``(outs, derivatives)`` of the graph's input tensors: what nptf.vmap maps.
        self.differentiated = differentiated
        self.signature = signature
        self._concrete = None

    def tensors(self, run, inputs):
        """``(the graph's outputs on inputs, then the derivatives; its run-time checks)``:
        ``run`` builds the graph (lowering.checked_runner)."""
        kind, target = self.kind, self.targets[0]
        xs = [inputs[i] for i in self.wrt]
        zero = tf.UnconnectedGradients.ZERO
        if kind == "hessian":
            with tf.GradientTape(persistent=True) as outer:
                outer.watch(xs)
                with tf.GradientTape() as inner:
                    inner.watch(xs)
                    outs, checks = run(*inputs)
                firsts = inner.gradient(outs[target], xs, unconnected_gradients=zero)
            # Rows of the first derivative with respect to each input, then columns.
            derivs = [outer.jacobian(g, x, unconnected_gradients=zero,
                                     experimental_use_pfor=False)
                      for g in firsts for x in xs]
        else:
            with tf.GradientTape(persistent=kind == "jacobian") as tape:
                tape.watch(xs)
                outs, checks = run(*inputs)
            if kind == "jacobian":
                derivs = [tape.jacobian(outs[t], x, unconnected_gradients=zero,
                                        experimental_use_pfor=False)
                          for t in self.targets for x in xs]
            else:
                derivs = tape.gradient(outs[target], xs, unconnected_gradients=zero)
        derivs = [tf.convert_to_tensor(d) for d in derivs]   # gathers give slices
        derivs = [d if d.dtype == tf.as_dtype(t.dtype) else tf.cast(d, t.dtype)
                  for d, t in zip(derivs, self.deriv_types)]
        return list(outs) + derivs, checks

    def evaluate(self, graph, values):
        """The ``call`` op's outputs for NumPy ``values`` (TensorFlow, eagerly)."""
        return evaluate_callee(self, graph, values)

    def called(self, values):
        """The transform's result inside a trace: one ``call`` op on the tracers ``values``
        (and the calling trace's arrays the function reads)."""
        traced = self.traced
        why = ("it draws random numbers" if traced.random_seed else
               "it writes into its arguments" if traced.mutated else None)
        for info in traced.out_info:
            if info.kind not in ("array", "scalar", "pyscalar", "static"):
                why = why or f"it returns {'a list' if info.kind == 'list' else 'a value of a kind the data choose'}"
        if why:
            raise UnsupportedError(
                f"{self.name} inside a compiled function: {why}, which nptf does not carry "
                f"through a derivative taken inside another trace. Call {self.name} outside "
                f"the compiled function.")
        inputs = [Tracer(v) if isinstance(v, Var) else v for v in list(values) + self.captured]
        flat = emit("call", inputs, {"graph": self.graph, "callee": self})
        flat = list(flat) if isinstance(flat, tuple) else [flat]
        n = len(flat) - len(self.deriv_types)
        outs, derivs = iter(flat[:n]), flat[n:]
        leaves = []
        for info in traced.out_info:
            if info.kind == "static":
                leaves.append(info.value)
            else:
                t = next(outs)
                t.is_scalar = info.kind != "array" and t.atom.type.ndim == 0
                leaves.append(t)
        result = unflatten(traced.out_tree, leaves)
        for d, (s, hessian_block) in zip(derivs, self._deriv_specs()):
            d.is_scalar = d.atom.type.ndim == 0 and not hessian_block and \
                (s[0].weak or s[1]) and self.kind != "jacobian"
        return self.hand_back_derivs(result, derivs)

    def _deriv_specs(self):
        specs = [s for _, _, _, leaf_specs in self.parts for s in leaf_specs]
        if self.kind == "hessian":
            return [(s, True) for s in specs for _ in specs]
        return [(s, False) for s in specs]

    @property
    def concrete(self):
        if self._concrete is None:
            fn = tf.function(self.differentiated, input_signature=self.signature,
                             autograph=False)
            self._concrete = fn.get_concrete_function()
        return self._concrete

    def run(self, compiled, values):
        values = list(values)
        if self.traced.random_seed:
            values.append(np.random.randint(0, 2 ** 62, size=2, dtype=np.int64))
        tensors = [tf.convert_to_tensor(v) for v in values]
        outs, derivs = self.concrete(*tensors)
        return self.hand_back(compiled, values, [o for o in outs], [d.numpy() for d in derivs])

    def hand_back(self, compiled, values, outs, derivs):
        """The transform's result from one run's graph outputs and derivatives."""
        return self.hand_back_derivs(compiled.results(self.entry, list(outs), values), derivs)

    def hand_back_derivs(self, result, derivs):
        if self.kind == "hessian":
            n = len(self.wrt)
            blocks = [derivs[i * n:(i + 1) * n] for i in range(n)]
            grads = self._hessian_tree(blocks)
        elif len(self.targets) > 1 or (self.kind == "jacobian" and not self.has_aux and
                                       self.traced.out_tree.kind != "leaf"):
            # A Jacobian of each value the function returns, in its structure (as JAX's).
            n = len(derivs) // len(self.targets)
            grads = unflatten(self.traced.out_tree,
                              [self._tree(derivs[i * n:(i + 1) * n])
                               for i in range(len(self.targets))])
        else:
            grads = self._tree(derivs)
        if self.kind == "value_and_grad":
            return result, grads
        if self.has_aux:
            return grads, result[1]
        return grads

    def _tree(self, derivs):
        """The derivatives in the arguments' structure: one argnum gives its own, several a
        tuple of them. A Python float's gradient is a Python float."""
        it = iter(derivs)
        per_arg = []
        for _, positions, td, leaf_specs in self.parts:
            leaves = []
            for s in leaf_specs:
                d = next(it)
                if isinstance(d, Tracer):
                    leaves.append(d)
                    continue
                d = np.asarray(d)
                weak = s[0].weak and d.ndim == 0 and self.kind != "jacobian"
                leaves.append(float(d) if weak else (d[()] if s[1] and d.ndim == 0 else d))
            per_arg.append(unflatten(td, leaves))
        return per_arg[0] if len(per_arg) == 1 else tuple(per_arg)

    def _hessian_tree(self, blocks):
        if len(blocks) == 1 and len(self.parts) == 1 and self.parts[0][2].kind == "leaf":
            return blocks[0][0]
        return tuple(tuple(row) for row in blocks)


def _transform(kind, doc):
    def transform(fn=None, argnums=0, has_aux=False, *, static_argnames=(), static_argnums=(),
                  input_signature=None):
        if fn is None:
            return lambda f: _Transformed(f, kind, argnums, has_aux, static_argnames,
                                          static_argnums, input_signature)
        return _Transformed(fn, kind, argnums, has_aux, static_argnames, static_argnums,
                            input_signature)
    transform.__name__ = transform.__qualname__ = kind
    transform.__doc__ = doc
    return transform


grad = _transform("grad", """The gradient of a scalar-valued NumPy function.

    ``nptf.grad(f)(x)`` is df/dx at ``x``, of ``x``'s shape and dtype; ``argnums``
    (an int or a tuple) picks the arguments, ``has_aux=True`` lets ``f`` return
    ``(value, aux)`` and gives ``(gradient, aux)``. docs/gradients.md has the details.""")
value_and_grad = _transform("value_and_grad", """``(f(*args), grad(f)(*args))`` from one run
    (``((value, aux), gradient)`` with ``has_aux=True``).""")
jacobian = _transform("jacobian", """The Jacobian of a NumPy function: of shape
    ``out.shape + x.shape`` for each argument differentiated.""")
hessian = _transform("hessian", """The Hessian of a scalar-valued NumPy function: of shape
    ``x.shape + x.shape`` (a tuple of tuples of blocks for several arguments).""")

__all__ = ["grad", "value_and_grad", "jacobian", "hessian"]
