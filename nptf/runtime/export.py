"""``nptf.export``: a NumPy function as a SavedModel that runs without Python or nptf.

The function goes through the same pipeline as ``nptf.compile`` (trace, passes,
lowering), traced once for the declared specs, where ``None`` dimensions take
any size at run time. Outputs whose shape depends on the data (``x[x > 0]``)
export fine: their signature shape has ``None`` there.
"""
from __future__ import annotations

import inspect
import os
import re
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field

import numpy as np
import tensorflow as tf

from ..errors import TracerConversionError, UnsupportedError, unsupported
from ..graph_ir import ArrayType
from ..graph_ir.ops_checks import error_label
from ..lowering import lower_graph, xla_obstacles
from ..tracer import trace_function, without_kind_flags
from .compiled import optimize
from .entry import compiled_of
from .spec import Spec

SERVING_DEFAULT = "serving_default"

# What TensorFlow accepts as a signature input or output name.
_TF_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/]*$")


@dataclass
class ExportedSignature:
    """What one signature of an exported SavedModel takes and returns."""
    inputs: dict            # input name -> Spec
    outputs: dict           # output name -> tf.TensorSpec

    def describe(self):
        ins = ", ".join(f"{name}: {_spec_text(s.shape, s.dtype)}"
                        for name, s in self.inputs.items())
        outs = ", ".join(f"{name}: {_spec_text(s.shape, s.dtype.as_numpy_dtype)}"
                         for name, s in self.outputs.items())
        return f"({ins}) -> ({outs})"


@dataclass
class Exported:
    """The result of ``nptf.export``: where the SavedModel is and its signatures."""
    path: str
    signatures: dict = field(default_factory=dict)     # name -> ExportedSignature

    def __str__(self):
        lines = [f"SavedModel at {self.path}"]
        lines += [f"  {name}{sig.describe()}" for name, sig in self.signatures.items()]
        return "\n".join(lines)


def _spec_text(shape, dtype):
    dims = ",".join("None" if d is None else str(d) for d in shape)
    return f"{np.dtype(dtype).name}[{dims}]"


def export(fn, path, *specs, signatures=None, jit_compile=False, force=False, static_args=None):
    """Write ``fn`` as a SavedModel at ``path`` with a ``serving_default`` signature.

    ``fn`` is a plain NumPy function or an ``nptf.compile``d one. Each spec is an
    ``nptf.Spec(shape, dtype, name=...)`` (``None`` = a dimension of any size) or
    an example array. Specs bind to the array parameters in order; a spec whose
    name is a parameter binds that parameter. Signature inputs are named after
    the parameters (a Spec's name overrides); outputs are ``output_0``,
    ``output_1``... or the keys of a returned dict. ``static_args`` gives values
    for parameters that are not arrays (``static_argnames``, ``n`` in
    ``x.reshape(n, -1)``); a parameter with neither spec nor static value takes
    its default, as a static value. More signatures:
    ``signatures={"name": (fn, [specs...])}`` or ``(fn, [specs...], static_args)``.

    The model is written to a temporary directory beside ``path`` and renamed
    into place when complete. An existing ``path`` raises ``FileExistsError``
    unless ``force=True``, which replaces only a SavedModel directory (one
    holding ``saved_model.pb``) or an empty directory: anything else there
    is refused even with ``force=True``.
    """
    todo = {}
    if fn is not None:
        todo[SERVING_DEFAULT] = (fn, specs, static_args)
    elif specs or static_args:
        raise TypeError("export(None, path, ...) takes its functions from signatures=; "
                        "specs and static_args belong in each signatures entry")
    for name, entry in (signatures or {}).items():
        if name in todo:
            raise ValueError(f"signatures={{{name!r}: ...}} clashes with the signature of fn "
                             f"(always {SERVING_DEFAULT!r}); rename it or pass fn=None")
        todo[name] = _signature_entry(name, entry)
    if not todo:
        raise TypeError("export needs a function: export(fn, path, *specs) or "
                        "export(None, path, signatures={'name': (fn, [specs...])})")

    target = os.path.abspath(os.fspath(path))
    _refuse_existing(target, force)     # before tracing: fail fast, the check repeats at the end
    module = tf.Module()
    concrete, described = {}, {}
    for name, (f, f_specs, f_static) in todo.items():
        plan = bind_specs(f, f_specs, f_static)
        tf_fn, concrete[name], described[name] = _signature_function(plan, jit_compile)
        if name.isidentifier() and not hasattr(module, name):
            setattr(module, name, tf_fn)        # also callable as loaded.<name>(...)
    _write_atomically(target, force,
                      lambda staging: tf.saved_model.save(module, staging, signatures=concrete))
    return Exported(target, described)


def _signature_entry(name, entry):
    if not isinstance(name, str) or not _TF_NAME.match(name):
        raise ValueError(f"signature name {name!r} is not a valid TensorFlow name; use letters, "
                         f"digits, '_', '.', '-' and '/' (not leading '_')")
    if not isinstance(entry, tuple) or len(entry) not in (2, 3):
        raise TypeError(f"signatures[{name!r}] must be (fn, [specs...]) or "
                        f"(fn, [specs...], static_args), got {type(entry).__name__}")
    f, f_specs, *rest = entry
    return f, tuple(f_specs), (rest[0] if rest else None)


# ---------------------------------------------------------------- binding specs
@dataclass
class BoundSpecs:
    """A function and, per parameter, its Spec (a graph input) or static value."""
    fn: object
    name: str
    signature: inspect.Signature
    params: list            # (parameter, Spec or None, static value, input name)

    @property
    def specs(self):
        """The Specs of the array parameters, in parameter order."""
        return [spec for _, spec, _, _ in self.params if spec is not None]

    @property
    def static_names(self):
        return [p.name for p, spec, _, _ in self.params if spec is None]

    def arguments(self, arrays):
        """``(args, kwargs)`` calling the function with ``arrays`` for the array parameters."""
        it = iter(arrays)
        return self.arguments_from_leaves([next(it) if spec is not None else value
                                           for _, spec, value, _ in self.params])

    def arguments_from_leaves(self, leaves):
        """``(args, kwargs)`` from one value per parameter."""
        args, kwargs = [], {}
        for (p, *_), leaf in zip(self.params, leaves):
            if p.kind == p.KEYWORD_ONLY:
                kwargs[p.name] = leaf
            else:
                args.append(leaf)
        return args, kwargs


def bind_specs(fn, specs, static_args=None):
    """Match specs to the parameters of ``fn`` (see ``export``): a ``BoundSpecs``."""
    fn, static_names, default_specs = _unwrap(fn)
    signature = inspect.signature(fn)
    label = getattr(fn, "__qualname__", repr(fn))
    specs = [Spec.of(s) for s in (specs or default_specs or ())]
    static_args = dict(static_args or {})
    params = [p for p in signature.parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    names = [p.name for p in params]
    unknown = sorted(set(static_args) - set(names))
    if unknown:
        raise ValueError(f"static_args {unknown} are not parameters of {label}{signature}")

    by_param = {}
    positional = []
    for spec in specs:
        if spec.name in names and spec.name not in by_param:
            by_param[spec.name] = spec
        else:
            positional.append(spec)
    free = [n for n in names if n not in by_param and n not in static_args
            and n not in static_names]
    if len(positional) > len(free):
        raise TypeError(f"{label}{signature} has {len(free) + len(by_param)} array parameters, "
                        f"got {len(specs)} specs: {', '.join(str(s) for s in specs)}")
    by_param.update(zip(free, positional))
    clash = sorted(set(by_param) & (set(static_args) | static_names))
    if clash:
        raise ValueError(f"parameters {clash} of {label} have both a spec and a static value; "
                         f"give each parameter one or the other")

    plan = []
    for p in params:
        spec = by_param.get(p.name)
        if spec is not None:
            plan.append((p, spec, None, spec.name or p.name))
        elif p.name in static_args:
            plan.append((p, None, static_args[p.name], None))
        elif p.default is not p.empty:
            plan.append((p, None, p.default, None))
        else:
            kind = "static argument" if p.name in static_names else "parameter"
            raise TypeError(f"{kind} {p.name!r} of {label}{signature} has no spec and no value: "
                            f"add a spec for it (nptf.Spec, or --spec {p.name}=float64[None]) or "
                            f"a value (static_args={{{p.name!r}: ...}}, or --static {p.name}=...)")
    _check_input_names(plan, label)
    return BoundSpecs(fn, label, signature, plan)


def _unwrap(fn):
    """The plain function, the parameters it keeps static, and its input_signature if any."""
    compiled = compiled_of(fn)
    if compiled is not None:
        return compiled.fn, compiled.static_argnames, compiled.input_signature
    if not callable(fn):
        raise TypeError(f"export needs a function, got {type(fn).__name__}")
    return fn, frozenset(), None


def _check_input_names(plan, label):
    seen = set()
    for p, spec, _, input_name in plan:
        if spec is None:
            continue
        if not _TF_NAME.match(input_name):
            raise ValueError(f"input name {input_name!r} (parameter {p.name!r} of {label}) is not "
                             f"a valid TensorFlow name; name it with nptf.Spec(..., name='x')")
        if input_name in seen:
            raise ValueError(f"two inputs of {label} are both named {input_name!r}; give the "
                             f"Specs different names")
        seen.add(input_name)


# ------------------------------------------------------------------- tracing
def _trace(plan):
    leaf_specs = [(ArrayType(spec.shape, spec.dtype), False) if spec is not None else value
                  for _, spec, value, _ in plan.params]
    try:
        traced = trace_function(plan.fn, leaf_specs, plan.arguments_from_leaves)
        if traced.captured:
            raise unsupported("drawing from a NumPy Generator made outside the function "
                              "(a module's global), which a SavedModel cannot call",
                              fix="Draw the numbers with NumPy and pass them in as an input.")
        return without_kind_flags(traced)
    except (UnsupportedError, TracerConversionError) as e:
        raise _not_exportable(plan, e) from e
    except Exception as e:
        # NumPy's own error (a spec of the wrong rank, say): keep its type, say which specs.
        specs = ", ".join(_spec_text(s.shape, s.dtype) for s in plan.specs)
        e.add_note(f"  while exporting {plan.name} for inputs ({specs})")
        raise


def _not_exportable(plan, error, why="it only runs with NumPy, and a SavedModel cannot call "
                                     "Python"):
    """The same error type, saying why the function cannot become a SavedModel."""
    new = type(error)(f"cannot export {plan.name}: {why}. {error}")
    new._nptf_located = True
    return new


def _mutated_names(plan, traced):
    """Arguments the function writes into: exported as extra outputs ``<argument>_out``.

    A SavedModel cannot write into the caller's arrays; the new values come back
    instead (tracing appends them to the graph's outputs, in this order).
    """
    input_names = [name for _, spec, _, name in plan.params if spec is not None]
    return [f"{input_names[i]}_out" for i in (getattr(traced, "mutated", None) or [])]


def _output_names(traced):
    """``output_0``, ``output_1``... over the flattened result, or a returned dict's keys."""
    tree = traced.out_tree
    count = len(traced.out_info)
    if tree.kind != "dict":
        return [f"output_{i}" for i in range(count)]
    names = []
    for key, child in zip(tree.meta, tree.children):
        n = _leaf_count(child)
        names += [str(key)] if child.kind == "leaf" else [f"{key}_{j}" for j in range(n)]
    for key in names:
        if not _TF_NAME.match(key):
            raise ValueError(f"output key {key!r} is not a valid TensorFlow signature name; "
                             f"return a dict whose keys use letters, digits, '_', '.', '-'")
    if len(set(names)) != len(names):
        raise ValueError(f"output names {names} repeat; rename the dict keys")
    return names


def _leaf_count(tree):
    return 1 if tree.kind == "leaf" else sum(_leaf_count(c) for c in tree.children)


def _static_output(plan, name, value):
    """A Python number the function returns: exported as a constant tensor."""
    if isinstance(value, (bool, int, float, complex)):
        return np.asarray(value)
    hint = " (x.shape[i] is None for a dimension declared None)" if value is None else ""
    raise TypeError(f"{plan.name} returns {value!r} as output {name!r}{hint}; a SavedModel "
                    f"signature returns tensors only. Return an array or a number there, or "
                    f"leave it out")


def _signature_function(plan, jit_compile):
    traced = _trace(plan)
    written = _mutated_names(plan, traced)
    graph = optimize(traced.graph)
    if jit_compile:
        obstacles = xla_obstacles(graph)
        if obstacles:
            raise ValueError(f"cannot export {plan.name} with jit_compile=True: "
                             f"{'; '.join(obstacles)}. Export with jit_compile=False")
    names = _output_names(traced)
    clash = set(names) & set(written)
    if clash:
        raise ValueError(f"{plan.name} returns outputs named {sorted(clash)}, which are also the "
                         f"names of its written arguments; rename the dict keys")
    constants = {name: _static_output(plan, name, info.value)
                 for name, info in zip(names, traced.out_info) if info.kind == "static"}
    run = lower_graph(graph, bool(jit_compile), portable=True)
    # The graph itself (XLA-compiled if asked) inside a plain function that names the
    # outputs and turns NumPy's run-time errors into assertions, which XLA would drop.
    compute = tf.function(run, jit_compile=bool(jit_compile), autograph=False)

    def serve(*inputs):
        results = list(compute(*inputs))
        checks = getattr(run, "checks", [])     # known once compute has been traced
        guards = _assertions(results.pop(), checks) if checks else []
        computed = iter(results)
        outputs = {}
        with tf.control_dependencies(guards):
            for name in names:
                value = tf.constant(constants[name]) if name in constants else next(computed)
                outputs[name] = tf.identity(value, name=name)
            for name in written:
                outputs[name] = tf.identity(next(computed), name=name)
        return outputs

    inputs = {input_name: spec for _, spec, _, input_name in plan.params if spec is not None}
    if traced.random_seed:
        # Random draws need a key per request: the caller passes two int64 words.
        if "rng_seed" in inputs:
            raise ValueError(f"{plan.name} has a parameter named 'rng_seed', which the export of "
                             f"a function drawing random numbers needs for its seed input")
        inputs["rng_seed"] = Spec((2,), np.int64, "rng_seed")
    input_signature = [tf.TensorSpec(s.shape, tf.as_dtype(s.dtype), name=n)
                       for n, s in inputs.items()]
    tf_fn = tf.function(serve, input_signature=input_signature, autograph=False)
    try:
        concrete = tf_fn.get_concrete_function()
    except UnsupportedError as e:
        raise _not_exportable(plan, e, why="TensorFlow cannot express one of its operations") \
            from e
    return tf_fn, concrete, ExportedSignature(inputs, dict(concrete.structured_outputs))


def _assertions(flags, checks):
    """Where NumPy raises at run time (an index out of bounds), the signature fails instead."""
    return [tf.debugging.Assert(flags[i], [f"{error_label(error)}: {message}"])
            for i, (error, message) in enumerate(checks)]


# ------------------------------------------------------------------- writing
def _refuse_existing(target, force):
    """Refuse a ``target`` that exists, unless ``force`` and it is a model to replace.

    ``force`` replaces only what an export could have written: a SavedModel
    directory (it holds ``saved_model.pb``) or an empty directory. Anything
    else (a file, a link, a directory of other things) is the user's and is
    refused even with ``force``, naming what is there.
    """
    if not os.path.lexists(target):
        return
    obstacle = _not_replaceable(target)
    if obstacle:
        raise FileExistsError(f"{target} {obstacle}; export does not replace it, even with "
                              f"force=True (nptf export --force), which replaces only a "
                              f"SavedModel directory (one holding saved_model.pb) or an empty "
                              f"directory. Export to another path, or move it away first")
    if not force:
        raise FileExistsError(f"{target} already exists; pass force=True (nptf export --force) "
                              f"to replace it")


def _not_replaceable(target):
    """Why ``target`` is not a SavedModel or empty directory, or None if it is one."""
    if os.path.islink(target):
        return f"is a symbolic link (to {os.readlink(target)})"
    if not os.path.isdir(target):
        return "is a file, not a directory" if os.path.isfile(target) else \
            "is not a directory"
    try:
        entries = sorted(os.listdir(target))
    except OSError as e:
        return f"cannot be listed ({e.strerror})"
    if not entries or os.path.isfile(os.path.join(target, "saved_model.pb")):
        return None
    shown = [name + ("/" if os.path.isdir(os.path.join(target, name)) else "")
             for name in entries[:4]]
    more = f" and {len(entries) - 4} more" if len(entries) > 4 else ""
    return (f"is a directory that is not a SavedModel (no saved_model.pb); it holds "
            f"{', '.join(shown)}{more}")


def _write_atomically(target, force, write):
    """``write(staging_dir)``, then rename the finished directory to ``target``.

    A failure at any point removes the staging directory and leaves ``target``
    as it was. Replacing an existing ``target`` takes two renames (old away,
    new in): POSIX cannot swap directories in one step, so for an instant
    between them ``target`` does not exist; the old one is restored if the
    second rename fails.
    """
    parent, base = os.path.split(target)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=f".{base}.partial-", dir=parent)
    try:
        write(staging)
        _refuse_existing(target, force)
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _move_into_place(staging, target):
    if not os.path.lexists(target):
        os.rename(staging, target)
        return
    parent, base = os.path.split(target)
    retired = os.path.join(parent, f".{base}.replaced-{uuid.uuid4().hex[:8]}")
    os.rename(target, retired)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(retired, target)
        raise
    if os.path.isdir(retired) and not os.path.islink(retired):
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.remove(retired)


__all__ = ["export", "bind_specs", "BoundSpecs", "Exported", "ExportedSignature", "SERVING_DEFAULT"]
