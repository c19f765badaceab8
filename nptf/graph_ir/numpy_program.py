"""A graph as a NumPy program: its equations as straight-line NumPy calls.

Adaptive dispatch runs small inputs with NumPy, where a TensorFlow call costs
more than the work. The user's function then pays on every call for what the
graph has already settled: Python scalars resolved against the arrays they
meet (NEP 50), constants broadcast, a new array for every intermediate. The
program generated here runs the optimized graph's equations, one NumPy call
each, and

* passes constants as 0-d arrays of their final dtype (a broadcast constant
  that only ufuncs read stays 0-d: the ufunc broadcasts it);
* lets a ufunc write into an intermediate that dies there, if only ufuncs read
  it (so no view of it exists), instead of allocating;
* runs basic slices, reshapes and transposes as the indexing or method call.

Every other op runs its reference evaluation rule (``evaluate.EVAL_RULES``), so
the program computes exactly what ``evaluate`` does. Outputs are new arrays,
as the graph's are: one that could be an input, a constant or a view is copied.

Not generated (``None``) for graphs that draw random numbers (their stream is
the graph's, not NumPy's), that print, or that may leave the graph at run time (a check
whose failure hands the call to the user's function).
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES, evaluate_eqn, slice_index
from .ir import Literal, Var
from .walk import all_eqns

# Evaluation rules that always return a new array (or a NumPy scalar), never a view.
_FRESH = {"copy", "convert", "where", "reduce_sum", "reduce_prod", "mean", "var", "std",
          "reduce_max", "reduce_min", "reduce_all", "reduce_any", "argmax", "argmin",
          "reduceat", "cumsum", "cumprod", "accumulate", "matmul", "concatenate", "repeat", "full",
          "full_like", "full_sized", "arange", "arange_traced", "eye", "slice_update",
          "dynamic_update_slice", "gather_nd", "boolean_mask", "nonzero", "scatter",
          "take_slices"}


_REDUCERS = {"reduce_sum": np.add.reduce, "reduce_prod": np.multiply.reduce,
             "reduce_max": np.maximum.reduce, "reduce_min": np.minimum.reduce}


def _broadcasts(eqn):
    """Whether ``eqn`` broadcasts its operands itself (a ufunc, ``where``)."""
    return _is_ufunc(eqn) or eqn.op.name == "where"


def _reads_values(eqn):
    """Whether ``eqn``'s outputs never view its operands' memory."""
    return _is_ufunc(eqn) or eqn.op.name in _FRESH


def _blas_matrices(atoms):
    """Two matrices of one BLAS dtype, whose product ``np.dot`` forms with less dispatch
    than ``np.matmul`` (the same BLAS call; 0.5 us against 0.7 us at 16x16)."""
    return all(a.type.ndim == 2 and a.type.dtype == atoms[0].type.dtype for a in atoms) and \
        atoms[0].type.dtype in _BLAS_DTYPES


_BLAS_DTYPES = {np.dtype(t) for t in ("float32", "float64", "complex64", "complex128")}


def _item(x):
    return np.asarray(x).item()


def unsupported_reason(graph):
    """Why no NumPy program is generated for ``graph``, or None."""
    for e in all_eqns(graph):
        if e.op.kind == "random":
            return f"{e.op.name} draws from the graph's random stream"
        if e.op.each_run:
            # Adaptive dispatch times the program beside the function: it would act twice.
            return f"{e.op.numpy_call(e.params)} acts each time it runs"
        if e.op.name == "check" and e.params.get("error") == "OutsideTheGraph":
            return "a run-time check may hand the call to the original function"
        if not _is_ufunc(e) and e.op not in EVAL_RULES:
            return f"{e.op.name} has no NumPy evaluation rule"
        if any(hasattr(g, "eqns") for v in e.params.values()
               for g in (v if isinstance(v, tuple) else (v,))):
            # Interpreting a loop body per iteration costs far more than the user's loop.
            return f"{e.op.name} has sub-graphs"
    return None


def numpy_program(graph, single=False, name="program"):
    """A function ``(*inputs) -> list of outputs`` that runs ``graph`` with NumPy (only the
    output itself if ``single``), or None (``unsupported_reason``). Weak values are Python
    scalars, as in ``evaluate``."""
    if unsupported_reason(graph) is not None:
        return None
    return _Generator(graph).build(single, name)


def _is_ufunc(eqn):
    return eqn.op.kind == "elementwise" and eqn.op.ufunc is not None


def _static(shape):
    return all(d is not None for d in shape)


class _Generator:
    def __init__(self, graph):
        self.graph = graph
        self.names = {}                 # Var -> Python name
        self.consts = {}                # Python name -> value
        self.lines = []
        self.uses = {}                  # Var -> indices of the equations that read it
        for i, e in enumerate(graph.eqns):
            for a in e.inputs:
                if isinstance(a, Var):
                    self.uses.setdefault(a, []).append(i)
        self.outputs = {a for a in graph.outputs if isinstance(a, Var)}
        self.inlined = self._inlined_broadcasts()

    # ------------------------------------------------------------- analysis
    def _only_read_by(self, var, reads):
        return var not in self.outputs and all(reads(self.graph.eqns[i])
                                               for i in self.uses.get(var, ()))

    def _inlined_broadcasts(self):
        """Broadcasts that only ufuncs read, each of which broadcasts its other operands to
        its output's shape anyway: var -> the broadcast operand (a constant as a 0-d array
        of its dtype)."""
        inlined = {}
        for e in self.graph.eqns:
            if e.op.name != "broadcast_to":
                continue
            (var,), (x,) = e.outputs, e.inputs
            if x.type.weak or var.type.weak or not self._only_read_by(var, _broadcasts) or \
                    not all(self._covers(self.graph.eqns[i], var) for i in self.uses.get(var, ())):
                continue
            if isinstance(x, Literal):
                value = np.asarray(x.value)
                if value.dtype == x.type.dtype and not value.ndim:
                    inlined[var] = value
            else:
                inlined[var] = x
        return inlined

    @staticmethod
    def _covers(eqn, var):
        """Whether ``eqn``'s other operands alone broadcast to its output shape."""
        shapes = [a.type.shape for a in eqn.inputs if a is not var]
        out = eqn.outputs[0].type.shape
        if not shapes or not _static(out) or not all(_static(s) for s in shapes):
            return False
        try:
            return np.broadcast_shapes(*shapes) == out
        except ValueError:
            return False

    def _reusable(self, eqn, index, candidates=None):
        """An input of ``eqn`` whose buffer its one output may take: an array this program
        made, that dies here and of which no view exists (only ops that read values took it)."""
        (out,) = eqn.outputs
        if out.type.weak or not out.type.shape or not _static(out.type.shape):
            return None
        for a in eqn.inputs if candidates is None else candidates:
            if isinstance(a, Var) and a in self.owned and self.uses[a][-1] == index and \
                    a.type.shape == out.type.shape and a.type.dtype == out.type.dtype and \
                    self._only_read_by(a, _reads_values):
                return a
        return None

    # ------------------------------------------------------------- emission
    def _const(self, value):
        name = f"_k{len(self.consts)}"
        self.consts[name] = value
        return name

    def _name(self, var):
        name = self.names.get(var)
        if name is None:
            name = self.names[var] = f"v{len(self.names)}"
        return name

    def _operand(self, atom):
        if isinstance(atom, Literal):
            return self._const(atom.value)
        while atom in self.inlined:
            atom = self.inlined[atom]
            if not isinstance(atom, Var):
                return self._const(atom)
        return self.names[atom]

    def _store(self, outs, call, arrays=False):
        """``outs = call`` (a tuple of values if ``outs`` has several), then each output as
        ``evaluate`` keeps it: weak values as Python scalars, others as arrays (a ufunc
        returns a NumPy scalar for 0-d operands; ``arrays``: the call may return neither)."""
        names = [self._name(v) for v in outs]
        self.lines.append(f"{', '.join(names)} = {call}" if names else call)   # a print
        for v, n in zip(outs, names):
            if v.type.weak:
                self.lines.append(f"{n} = _item({n})")
            elif arrays or not v.type.shape:
                self.lines.append(f"{n} = _asarray({n})")

    def _emit(self, index, eqn):
        args = [self._operand(a) for a in eqn.inputs]
        if _is_ufunc(eqn):
            ufunc = self._const(eqn.op.ufunc)
            if len(eqn.outputs) == 1:
                reuse = self._reusable(eqn, index)
                if reuse is not None:       # keyword only: maximum/minimum deprecate it positional
                    self.owned.discard(reuse)
                    args.append(f"out={self.names[reuse]}")
                self.owned.add(eqn.outputs[0])
            self.fresh.update(eqn.outputs)
            self._store(eqn.outputs, f"{ufunc}({', '.join(args)})")
            return
        if eqn.op.name == "slice_update" and isinstance(eqn.inputs[0], Var) and \
                eqn.inputs[0].type.shape and not eqn.inputs[0].type.weak:
            self._emit_slice_update(index, eqn, args)
            return
        direct = self._direct(eqn, args)
        if direct is not None:
            self._store(eqn.outputs, direct)
            if eqn.op.name in _FRESH:
                self.fresh.update(eqn.outputs)
                self.owned.update(v for v in eqn.outputs if v.type.shape)
            return
        if eqn.op.name in _FRESH:
            self.fresh.update(eqn.outputs)
        unpack = "[0]" if len(eqn.outputs) == 1 else ""
        self._store(eqn.outputs, f"_evaluate({self._const(eqn)}, [{', '.join(args)}]){unpack}",
                    arrays=True)

    def _emit_slice_update(self, index, eqn, args):
        (out,), base = eqn.outputs, eqn.inputs[0]
        index_ = slice_index(eqn.params["slices"])
        if self._reusable(eqn, index, candidates=[base]) is base:
            self.owned.discard(base)
            self.lines.append(f"{self._name(out)} = {args[0]}")
        else:
            self.lines.append(f"{self._name(out)} = _array({args[0]})")
        self.lines.append(f"{self._name(out)}[{self._const(index_)}] = {args[1]}")
        self.owned.add(out)
        self.fresh.add(out)

    def _direct(self, eqn, args):
        """A NumPy call that does what ``eqn``'s evaluation rule does on array operands with
        less Python around it, or None. ``np.sum(x, ...)`` on an ndarray is
        ``np.add.reduce(x, ...)`` after argument handling, and so on."""
        x = eqn.inputs[0] if eqn.inputs else None
        p, name = eqn.params, eqn.op.name
        if name == "broadcast_to" and isinstance(x, Literal) and not x.type.weak and \
                _static(p["shape"]):
            # A constant: computed once (NumPy's broadcast view is read-only).
            return self._const(EVAL_RULES["broadcast_to"](p, x.value))
        if not isinstance(x, Var) or x.type.weak or not x.type.shape:
            return None
        if name in _REDUCERS and all(isinstance(a, Var) for a in eqn.inputs):
            dtype = p["dtype"] if name in ("reduce_sum", "reduce_prod") else None
            call = ", ".join([args[0], self._const(tuple(p["axes"])), self._const(dtype),
                              "None", self._const(bool(p["keepdims"]))])
            return f"{self._const(_REDUCERS[name])}({call})"
        if name in ("matmul", "where") and not any(a.type.weak for a in eqn.inputs):
            fn = np.where if name == "where" else np.dot if _blas_matrices(eqn.inputs) else np.matmul
            return f"{self._const(fn)}({', '.join(args)})"
        if name == "copy":
            return f"_array({args[0]})"
        if name == "mean":
            call = ", ".join([args[0], self._const(tuple(p["axes"])), self._const(p["dtype"]),
                              "None", self._const(bool(p["keepdims"]))])
            return f"{self._const(np.ndarray.mean)}({call})"
        if name in ("var", "std"):
            call = ", ".join([args[0], self._const(tuple(p["axes"])), "None", "None",
                              self._const(p["ddof"]), self._const(bool(p["keepdims"]))])
            return f"{self._const(getattr(np.ndarray, name))}({call}).astype({self._const(p['dtype'])})"
        if name == "convert":
            return f"{args[0]}.astype({self._const(p['dtype'])})"
        if name == "slice":
            return f"{args[0]}[{self._const(slice_index(p['slices']))}]"
        if name == "reshape" and _static(p["shape"]):
            return f"{args[0]}.reshape({self._const(tuple(p['shape']))})"
        if name == "transpose":
            return f"{args[0]}.transpose({self._const(tuple(p['perm']))})"
        return None

    def build(self, single, name):
        g = self.graph
        self.owned, self.fresh = set(), set()
        params = [self._name(v) for v in g.inputs]
        for v, n in zip(g.inputs, params):
            if v.type.weak:
                self.lines.append(f"{n} = _item({n})")
            elif not v.type.shape:
                self.lines.append(f"{n} = _asarray({n})")
        for i, e in enumerate(g.eqns):
            if not (e.op.name == "broadcast_to" and e.outputs[0] in self.inlined):
                self._emit(i, e)
        results, returned = [], set()
        for a in g.outputs:
            if isinstance(a, Literal):
                results.append(self._const(a.value) if a.type.weak
                               else f"_array({self._const(a.value)})")
            elif a.type.weak:
                results.append(self.names[a])
            elif a in self.fresh and a not in returned:
                results.append(self.names[a])
            else:       # an input, a view, or an output already returned
                results.append(f"_array({self.names[a]})")
            returned.add(a)
        if single:
            (result,) = results
            self.lines.append(f"return {result}")
        else:
            self.lines.append(f"return [{', '.join(results)}]")
        body = "\n".join(f"    {line}" for line in self.lines if line)
        source = f"def {name}({', '.join(params)}):\n{body}\n"
        namespace = {"_item": _item, "_asarray": np.asarray, "_array": np.array,
                     "_evaluate": evaluate_eqn, **self.consts}
        exec(compile(source, f"<nptf NumPy program {name}>", "exec"), namespace)
        fn = namespace[name]
        fn.source = source
        return fn


__all__ = ["numpy_program", "unsupported_reason"]
