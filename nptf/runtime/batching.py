"""``nptf.vmap``: a NumPy function mapped over a batch axis of its arguments as one graph.

``nptf.vmap(f)(xs)`` is NumPy's ``np.stack([f(x) for x in xs])``: the function is traced
on one example (the arguments without their batch axis) and TensorFlow's
``vectorized_map`` runs the graph over the batch (ops it cannot vectorize run in a
loop). ``in_axes`` (an int, None, or one per positional argument) says which axis of
each argument is the batch (None: the same value for every example); ``out_axes``
where the batch goes in each result. Random draws differ from example to example, as
the loop's would. What cannot run this way (a data-dependent error, a construct nptf
does not trace) runs that loop with NumPy, or raises with ``fallback="raise"``.
"""
from __future__ import annotations

import functools
import inspect
import threading

import numpy as np
import tensorflow as tf

from ..errors import Error, OutsideTheGraphError, UnsupportedError, warn_user
from ..graph_ir import ArrayType, Var
from ..graph_ir.ops_checks import check_error
from ..graph_ir.passes import PIPELINE
from ..graph_ir.walk import all_eqns
from ..lowering import VECTORIZED, lower_graph
from ..tracer import Tracer, output_kinds
from ..tracer.builder import current_builder
from ..tracer.tracer import emit, to_tracer
from ..tree import flatten, unflatten
from .calls import closed_graph, evaluate_callee
from .compiled import Compiled
from .entry import numpy_function_of


class _Batched:
    def __init__(self, fn, in_axes=0, out_axes=0, fallback="numpy", static_argnames=(),
                 static_argnums=()):
        made_by = getattr(fn, "nptf_transform", None)
        # A derivative (nptf.grad ...) mapped over the batch: per-example gradients. A
        # vmap's own result is traced as any function (its call is one op of the graph).
        self._inner = fn if made_by not in (None, "vmap") else None
        if self._inner is not None:
            static_argnames, static_argnums = (), ()
            fn = fn.compiled.fn
        fn, static_argnames = numpy_function_of(fn, static_argnames, "vmap")
        self.nptf_transform = "vmap"
        if fallback not in ("numpy", "raise"):
            raise ValueError(f"fallback must be 'numpy' or 'raise', got {fallback!r}")
        if not (isinstance(in_axes, int) or in_axes is None or
                (isinstance(in_axes, (tuple, list)) and
                 all(a is None or isinstance(a, int) for a in in_axes))):
            raise TypeError(f"in_axes must be an int, None, or a tuple of them (one per "
                            f"positional argument), got {in_axes!r}")
        if not isinstance(out_axes, int):
            raise TypeError(f"out_axes must be an int, got {out_axes!r}")
        self.fn, self.in_axes, self.out_axes, self.fallback = fn, in_axes, out_axes, fallback
        self._compiled = self._inner.compiled if self._inner is not None else \
            Compiled(fn, static_argnames=static_argnames, static_argnums=static_argnums,
                     fallback="raise", adaptive=False, jit_compile=False)
        self._static = self._compiled.static_argnames
        self._params = list(inspect.signature(fn).parameters)
        self._cache = {}
        self._lock = threading.RLock()
        functools.update_wrapper(self, fn, updated=())   # its own attributes stay

    # ------------------------------------------------------------------ call
    def __call__(self, *args, **kwargs):
        if current_builder() is not None:
            return self._called(args, kwargs)
        axes = self._axes(args)
        size = self._batch_size(args, axes)
        example = [self._take(a, ax, 0) for a, ax in zip(args, axes)]
        try:
            key, values, specs, treedefs, bound = self._compiled.signature_for(example, kwargs)
            with self._lock:
                plan = self._cache.get(key)
                if plan is None:
                    plan = self._cache[key] = self._plan(bound, specs, treedefs, axes)
            if isinstance(plan, Error):
                raise plan
            return plan.run(self._compiled, args, kwargs, size, self.out_axes)
        except (UnsupportedError, OutsideTheGraphError) as e:
            if self.fallback == "raise" or self._inner is not None:
                raise
            warn_user(f"nptf: vmap of {self._compiled.name} runs with NumPy, example by "
                      f"example, because {e}")
            return self._numpy(args, kwargs, axes, size)

    def _called(self, args, kwargs):
        """The batched call inside another function's trace (vmap of vmap, grad of vmap,
        vmap in a compiled function): one ``call`` op. Not cached: the function may read
        the calling trace's arrays."""
        axes = self._axes(args)
        args = [a if ax is None else unflatten(flatten(a)[1], [to_tracer(v) for v in flatten(a)[0]])
                for a, ax in zip(args, axes)]
        sizes, example = set(), []
        for a, ax in zip(args, axes):
            if ax is None:
                example.append(a)
                continue
            leaves, tree = flatten(a)
            one = []
            for v in leaves:
                t = v.atom.type
                if not -t.ndim <= ax < t.ndim:
                    raise ValueError(f"vmap in_axes {ax} is out of range for an argument of "
                                     f"shape {t.shape}")
                ax_ = ax % t.ndim
                sizes.add(t.shape[ax_])
                one.append(Tracer(Var(ArrayType(t.shape[:ax_] + t.shape[ax_ + 1:], t.dtype))))
            example.append(unflatten(tree, one))
        if not sizes:
            raise ValueError("vmap needs at least one argument with a batch axis "
                             "(in_axes all None)")
        if len(sizes - {None}) > 1:
            raise ValueError(f"vmap got inconsistent sizes for the batch axes: "
                             f"{sorted(sizes - {None})}")
        size = next(iter(sizes - {None}), None)
        _, _, specs, treedefs, bound = self._compiled.signature_for(example, kwargs)
        _, values, _, _, _ = self._compiled.signature_for(args, kwargs)
        if self._inner is not None:
            inner = self._inner.plan(bound, specs, treedefs)
            traced, graph, captured = inner.traced, inner.graph, inner.captured
        else:
            inner = None
            traced = self._compiled.trace_for(bound, specs, treedefs)
            graph, captured = closed_graph(traced)
        name = f"nptf.vmap({self._compiled.name})"
        why = ("it draws random numbers" if traced.random_seed else
               "it writes into its arguments" if traced.mutated else None)
        for info in traced.out_info:
            if info.kind not in ("array", "scalar", "pyscalar"):
                why = why or "its results are not all arrays computed from its arguments"
        if why:
            raise UnsupportedError(f"{name} inside a traced function: {why}, which nptf "
                                   f"does not batch there. Call it outside the compiled "
                                   f"function.")
        input_axes = _input_axes(traced, bound, specs, treedefs, axes) + [None] * len(captured)
        callee = _BatchedCall(name, graph, inner, input_axes, size, self.out_axes)
        inputs = [Tracer(v) if isinstance(v, Var) else v for v in list(values) + captured]
        flat = emit("call", inputs, {"graph": graph, "callee": callee})
        flat = list(flat) if isinstance(flat, tuple) else [flat]
        if inner is None:
            return unflatten(traced.out_tree, flat)
        n = len(graph.outputs)
        result = unflatten(traced.out_tree, flat[:n])
        structured = inner.hand_back_derivs(result, flat[n:])
        for t in flatten(structured)[0]:       # stacked: arrays, never NumPy scalars
            t.is_scalar = False
        return structured

    def _numpy(self, args, kwargs, axes, size):
        results = [self.fn(*[self._take(a, ax, i) for a, ax in zip(args, axes)], **kwargs)
                   for i in range(size)]
        leaves = [flatten(r)[0] for r in results]
        tree = flatten(results[0])[1]
        stacked = [np.moveaxis(np.stack([lv[j] for lv in leaves]), 0, self.out_axes)
                   for j in range(len(leaves[0]))]
        return unflatten(tree, stacked)

    def _axes(self, args):
        if isinstance(self.in_axes, (tuple, list)):
            if len(self.in_axes) != len(args):
                raise ValueError(f"vmap in_axes has {len(self.in_axes)} entries for "
                                 f"{len(args)} positional arguments")
            axes = list(self.in_axes)
        else:
            axes = [self.in_axes] * len(args)
        for i, a in enumerate(self._params[:len(args)]):
            if a in self._static:
                axes[i] = None
        return axes

    @staticmethod
    def _take(a, axis, i):
        if axis is None:
            return a
        leaves, tree = flatten(a)
        return unflatten(tree, [np.take(np.asarray(v), i, axis=axis) for v in leaves])

    def _batch_size(self, args, axes):
        sizes = {np.shape(v)[ax] for a, ax in zip(args, axes) if ax is not None
                 for v in flatten(a)[0]}
        if not sizes:
            raise ValueError("vmap needs at least one argument with a batch axis "
                             "(in_axes all None)")
        if len(sizes) > 1:
            raise ValueError(f"vmap got inconsistent sizes for the batch axes: {sorted(sizes)}")
        return sizes.pop()

    # ------------------------------------------------------------------ build
    def _plan(self, bound, specs, treedefs, axes):
        if self._inner is not None:
            inner = self._inner.plan(bound, specs, treedefs)
            if inner.traced.mutated:
                return UnsupportedError(
                    f"nptf.vmap of nptf.{self._inner.kind} of {self._compiled.name}, which "
                    f"writes into its arguments: return the new values instead")
            return _DerivativePlan(inner, _input_axes(inner.traced, bound, specs, treedefs,
                                                      axes))
        traced = self._compiled.trace_for(bound, specs, treedefs)
        if traced.mutated:
            return UnsupportedError(
                f"nptf.vmap of {self._compiled.name}, which writes into its arguments: "
                f"return the new values instead")
        if any(e.op.each_run for e in all_eqns(traced.graph)):
            # One batched run prints once, where NumPy's loop over the rows prints per row.
            return UnsupportedError(
                f"nptf.vmap of {self._compiled.name}, which prints: its prints would not run "
                f"once per row; take the print out of the mapped function")
        if any(info.kind in ("by_kind", "list", "items") for info in traced.out_info):
            return UnsupportedError(f"nptf.vmap of {self._compiled.name}, whose results are "
                                    f"lists or may be None: return arrays or numbers")
        graph = traced.graph
        for p in PIPELINE:
            graph = p(graph)
        return _Plan(traced, graph, _input_axes(traced, bound, specs, treedefs, axes))


def _input_axes(traced, bound, specs, treedefs, axes):
    """The batch axis of each graph input: per parameter, its dynamic leaves."""
    input_axes, leaf_at = [], 0
    for i, (name, td) in enumerate(zip(bound.arguments, treedefs)):
        count = td.num_leaves
        dynamic = sum(isinstance(s, tuple) and bool(s) and isinstance(s[0], ArrayType)
                      for s in specs[leaf_at:leaf_at + count])
        leaf_at += count
        input_axes += [axes[i] if i < len(axes) else None] * dynamic
    if traced.random_seed:
        input_axes.append(0)        # each example its own seed
    return input_axes


def _mapped_function(one, signature, batched, output_specs):
    """A concrete function of the batched inputs mapping ``one`` (of one example's input
    tensors) over the batch: ``vectorized_map``, or a loop where its converter fails."""
    def mapped(vectorized, *inputs):
        fixed = {i: x for i, (x, b) in enumerate(zip(inputs, batched)) if not b}
        elems = tuple(x for x, b in zip(inputs, batched) if b)

        def example(items):
            it = iter(items)
            return one(*[fixed[i] if i in fixed else next(it) for i in range(len(inputs))])
        if vectorized:
            return list(tf.vectorized_map(example, elems, fallback_to_while_loop=True))
        return list(tf.map_fn(example, elems, fn_output_signature=tuple(output_specs())))

    logger = tf.get_logger()
    level = logger.level
    logger.setLevel("CRITICAL")     # vectorized_map logs each op it cannot convert
    token = VECTORIZED.set(True)
    try:
        return tf.function(functools.partial(mapped, True), input_signature=signature,
                           autograph=False).get_concrete_function()
    except Exception:  # noqa: BLE001  (TensorFlow's converter fails in many ways)
        # An op TensorFlow cannot vectorize that its fallback cannot loop either: the
        # graph runs once per example.
        return tf.function(functools.partial(mapped, False), input_signature=signature,
                           autograph=False).get_concrete_function()
    finally:
        VECTORIZED.reset(token)
        logger.setLevel(level)


def _batched_signature(graph, input_axes):
    return [tf.TensorSpec(((None,) if a is not None else ()) + v.type.shape,
                          tf.as_dtype(v.type.dtype)) for v, a in zip(graph.inputs, input_axes)]


def _batched_inputs(compiled, graph, input_axes, args, kwargs, size):
    _, values, _, _, _ = compiled.signature_for(args, kwargs)
    inputs = [np.moveaxis(np.asarray(v), ax, 0) if ax is not None else v
              for v, ax in zip(values, input_axes)]
    if len(inputs) < len(graph.inputs):          # the random seed: one per example
        inputs.append(np.random.randint(0, 2 ** 62, size=(size, 2), dtype=np.int64))
    return [tf.convert_to_tensor(np.asarray(v, dtype=var.type.dtype))
            for v, var in zip(inputs, graph.inputs)]


class _DerivativePlan:
    """``nptf.vmap`` of a derivative: ``differentiated`` mapped over the batch, each
    example's results handed back as the derivative's own, then stacked."""

    def __init__(self, inner, input_axes):
        self.inner, self.input_axes = inner, input_axes
        batched = [a is not None for a in input_axes]

        def one(*tensors):
            outs, derivs = inner.differentiated(*tensors)
            return tuple(outs) + tuple(derivs)

        def output_specs():
            outs, derivs = inner.concrete.structured_outputs
            return [tf.TensorSpec(t.shape, t.dtype) for t in list(outs) + list(derivs)]
        self.n_outs = len(inner.concrete.structured_outputs[0])
        self.concrete = _mapped_function(one, _batched_signature(inner.graph, input_axes),
                                         batched, output_specs)

    def run(self, compiled, args, kwargs, size, out_axes):
        tensors = _batched_inputs(compiled, self.inner.graph, self.input_axes, args, kwargs,
                                  size)
        stacked = [t.numpy() for t in self.concrete(*tensors)]
        examples = []
        for i in range(size):
            values = [v.numpy()[i] if a is not None else v.numpy()
                      for v, a in zip(tensors, self.input_axes)]
            outs = [tf.constant(o[i]) for o in stacked[:self.n_outs]]
            derivs = [d[i] for d in stacked[self.n_outs:]]
            examples.append(self.inner.hand_back(compiled, values, outs, derivs))
        leaves = [flatten(r)[0] for r in examples]
        tree = flatten(examples[0])[1]
        return unflatten(tree, [np.moveaxis(np.stack([lv[j] for lv in leaves]), 0, out_axes)
                                for j in range(len(leaves[0]))])


class _Plan:
    def __init__(self, traced, graph, input_axes):
        self.traced, self.graph, self.input_axes = traced, graph, input_axes
        run = lower_graph(graph, xla=False)

        def output_specs():
            specs = [tf.TensorSpec(v.type.shape, tf.as_dtype(v.type.dtype))
                     for v in graph.outputs]
            if run.checks:
                specs.append(tf.TensorSpec((len(run.checks),), tf.bool))
            return specs
        self.concrete = _mapped_function(lambda *t: tuple(run(*t)),
                                         _batched_signature(graph, input_axes),
                                         [a is not None for a in input_axes], output_specs)
        self.checks = run.checks

    def run(self, compiled, args, kwargs, size, out_axes):
        tensors = _batched_inputs(compiled, self.graph, self.input_axes, args, kwargs, size)
        outs = [o.numpy() for o in self.concrete(*tensors)]
        if self.checks:
            flags = outs.pop().all(axis=0)
            for ok, (error, message) in zip(flags.tolist(), self.checks):
                if not ok:
                    raise check_error(error, message)
        results = []
        for value, kind in output_kinds(self.traced.out_info, outs):
            if kind == "static":
                value = np.stack([np.asarray(value)] * size)
            else:
                value = np.asarray(value)
            results.append(np.moveaxis(value, 0, out_axes) if value.ndim else value)
        return unflatten(self.traced.out_tree, results)


class _BatchedCall:
    """The callee (graph_ir.ops_calls) of a batched call inside another trace: the
    function's graph, or its derivative ``inner``, mapped over the batch."""

    def __init__(self, name, graph, inner, input_axes, size, out_axes):
        self.name, self.inner, self.input_axes = name, inner, input_axes
        one = [v.type for v in graph.outputs] + (inner.deriv_types if inner else [])
        self.out_axes = [out_axes % (t.ndim + 1) if -(t.ndim + 1) <= out_axes <= t.ndim
                         else _bad_out_axes(out_axes, t) for t in one]
        self.out_types = [ArrayType(t.shape[:a] + (size,) + t.shape[a:], t.dtype)
                          for t, a in zip(one, self.out_axes)]

    def tensors(self, run, xs):
        batched = [a is not None for a in self.input_axes]
        fixed = {i: x for i, (x, b) in enumerate(zip(xs, batched)) if not b}
        elems = tuple(_to_front(x, a) for x, a in zip(xs, self.input_axes) if a is not None)
        made = []

        def example(items):
            it = iter(items)
            tensors = [fixed[i] if i in fixed else next(it) for i in range(len(xs))]
            flat, checks = (self.inner.tensors(run, tensors) if self.inner is not None
                            else run(*tensors))
            made[:] = [(error, message) for _, error, message in checks]
            oks = (tf.stack([ok for ok, _, _ in checks]),) if checks else ()
            return tuple(flat) + oks

        logger = tf.get_logger()
        level = logger.level
        logger.setLevel("CRITICAL")     # vectorized_map logs each op it cannot convert
        try:
            outs = list(tf.vectorized_map(example, elems, fallback_to_while_loop=True))
        finally:
            logger.setLevel(level)
        checks = []
        if made:
            flags = tf.reduce_all(outs.pop(), axis=0)
            checks = [(flags[i], error, message) for i, (error, message) in enumerate(made)]
        outs = [_from_front(o, a) for o, a in zip(outs, self.out_axes)]
        return outs, checks

    def evaluate(self, graph, values):
        return evaluate_callee(self, graph, values)


def _bad_out_axes(out_axes, t):
    raise ValueError(f"vmap out_axes {out_axes} is out of range for a result of shape "
                     f"{t.shape} and the batch axis")


def _to_front(x, axis):
    if axis % x.shape.rank == 0:
        return x
    perm = list(range(x.shape.rank))
    perm.insert(0, perm.pop(axis % x.shape.rank))
    return tf.transpose(x, perm)


def _from_front(x, axis):
    if axis == 0:
        return x
    perm = list(range(1, x.shape.rank))
    perm.insert(axis, 0)
    return tf.transpose(x, perm)


def vmap(fn=None, in_axes=0, out_axes=0, *, fallback="numpy", static_argnames=(),
         static_argnums=()):
    """``f`` mapped over a batch axis: ``nptf.vmap(f)(xs)`` is ``np.stack([f(x) for x in
    xs])``, computed as one graph. docs/gradients.md has the details."""
    if fn is None:
        return lambda f: _Batched(f, in_axes, out_axes, fallback, static_argnames,
                                  static_argnums)
    return _Batched(fn, in_axes, out_axes, fallback, static_argnames, static_argnums)


__all__ = ["vmap"]
