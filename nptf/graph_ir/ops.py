"""Every IR op: a name and a type rule, one entry each.

Two kinds of op:
* ``elementwise`` ops are NumPy ufuncs. Their dtypes come from
  ``ufunc.resolve_dtypes`` (NEP 50 weak scalars included) and their shapes
  from broadcasting. ``input_dtypes`` is the loop NumPy would run, so the
  promote pass knows which casts to insert.
* structural ops (reshape, reductions, matmul, ...) carry static ``params``.

Every table of per-op rules is an ``OpTable`` keyed by the ``Op`` record, kept in
the layer or pass that owns it: lowering rules (``nptf.lowering.rules``), reference
evaluation rules (``graph_ir.evaluate``), a pass's rewrite rules
(``graph_ir.passes.rewrite``). A name no op has fails when its rule registers.
"""
from __future__ import annotations

import math

import numpy as np

from .types import ArrayType, broadcast_shapes, numpy_operand, sample


class Op:
    """An IR primitive: ``type_rule(in_types, params) -> out types``, and the facts the
    other layers ask of it (``declare``):

    * ``xla_obstacle(in_types, params)``: true (or a sentence saying why) where XLA
      cannot compile the op on those types, or compiles it unlike NumPy;
    * ``slower_under_xla``: XLA's CPU kernel is slower than TensorFlow's at every size
      measured, so graphs with the op are not tried under XLA;
    * ``may_raise_on_ints``: TensorFlow's kernel may fail on some integer operands (a zero
      divisor, a negative exponent), so rewrites that run the op on elements NumPy never
      computes (past a slice, outside a mask) leave it alone on integers;
    * ``numpy_name``: what the user called, for messages, where the op's name does not
      say it (a string, or a function of the params); ``numpy_call(params)`` reads it;
    * ``no_gradient``: why the op's result has no derivative with respect to its float
      inputs although it depends on them (their bytes read as integers);
    * ``effects(params)``: true where the equation acts whether or not its result is
      read (a check that raises NumPy's error), so that dead-code elimination keeps it
      and rewrites keep it in its order (``graph_ir.walk.has_effects``);
    * ``each_run``: its effect happens each time the equation runs (a print), so an
      equal equation (an unrolled loop's copy) is not merged with it
      (``graph_ir.walk.acts_each_run``);
    * ``fp_flags``: how NumPy's floating-point error flags (``np.errstate``) arise from
      the op: ``"values"``, element by element where a result is infinite from finite
      operands or NaN from operands without NaN (elementwise ops); ``"any"``, possibly
      wherever a result is not finite (other arithmetic); ``False``, never (moves,
      comparisons, bit operations); a function of the params for one of those. ``None``
      reads as the kind's default;
    * ``shape_of_first``: the result has the shape of the first operand where their ranks
      agree (a write into it, a copy, a running sum), so run-time sizes pass through."""

    def __init__(self, name, type_rule, input_dtypes=None, kind="structural", ufunc=None):
        self.name = name
        self.type_rule = type_rule
        self._input_dtypes = input_dtypes
        self.kind = kind
        self.ufunc = ufunc
        self.xla_obstacle = None
        self.slower_under_xla = False
        self.may_raise_on_ints = False
        self.numpy_name = None
        self.no_gradient = None
        self.effects = None
        self.each_run = False
        self.fp_flags = None
        self.shape_of_first = False

    def input_dtypes(self, in_types, params):
        """The dtype each input must have once NumPy's promotion is explicit."""
        if self._input_dtypes is None:
            return [t.dtype for t in in_types]
        return [np.dtype(d) for d in self._input_dtypes(in_types, params)]

    def sets_fp_flags(self, params):
        """``fp_flags`` for these params, or the default of the op's kind."""
        if callable(self.fp_flags):
            return self.fp_flags(params)
        if self.fp_flags is not None:
            return self.fp_flags
        return "values" if self.kind == "elementwise" else "any" if self.kind == "structural" \
            else False

    def numpy_call(self, params):
        """The NumPy function or construct the op stands for, for messages."""
        name = self.numpy_name
        if callable(name):
            return name(params)
        return name or (f"np.{self.name}" if self.ufunc is not None else self.name)

    def __repr__(self):
        return self.name


OPS: dict[str, Op] = {}


class OpTable(dict):
    """Rules keyed by the ``Op`` record; an op's name stands for it wherever a key is
    given, so a rule for a name no op has fails when it registers."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.update(*args, **kwargs)

    @staticmethod
    def _op(key):
        return key if isinstance(key, Op) else OPS[key]

    def __setitem__(self, key, fn):
        super().__setitem__(self._op(key), fn)

    def __getitem__(self, key):
        return super().__getitem__(self._op(key))

    def __contains__(self, key):
        return super().__contains__(key if isinstance(key, Op) else OPS.get(key))

    def get(self, key, default=None):
        return super().get(key if isinstance(key, Op) else OPS.get(key), default)

    def update(self, *args, **kwargs):
        for key, fn in dict(*args, **kwargs).items():
            self[key] = fn


_FACTS = ("xla_obstacle", "slower_under_xla", "may_raise_on_ints", "numpy_name",
          "no_gradient", "effects", "each_run", "fp_flags", "shape_of_first")


def declare(names, **facts):
    """Sets facts (``Op``'s docstring) on the ops ``names`` (a name or a list of them); a
    name no op has fails at import."""
    for name in [names] if isinstance(names, str) else names:
        op = OPS[name]
        for fact, value in facts.items():
            if fact not in _FACTS:
                raise TypeError(f"no op fact {fact!r}")
            setattr(op, fact, value)


def register(name, input_dtypes=None, kind="structural", ufunc=None):
    def wrap(type_rule):
        OPS[name] = Op(name, type_rule, input_dtypes, kind, ufunc)
        return type_rule
    return wrap


# ----------------------------------------------------------------- elementwise
ELEMENTWISE_UFUNCS = """
add subtract multiply divide floor_divide remainder fmod divmod power float_power
negative positive absolute fabs sign reciprocal square sqrt cbrt
exp exp2 expm1 log log2 log10 log1p logaddexp logaddexp2
sin cos tan arcsin arccos arctan arctan2 hypot sinh cosh tanh arcsinh arccosh arctanh
deg2rad rad2deg degrees radians floor ceil trunc rint modf frexp ldexp
maximum minimum fmax fmin
greater greater_equal less less_equal equal not_equal
logical_and logical_or logical_xor logical_not
bitwise_and bitwise_or bitwise_xor invert left_shift right_shift bitwise_count
isnan isinf isfinite signbit copysign nextafter heaviside conjugate
gcd lcm spacing
""".split()


def _ufunc_loop(ufunc, in_types):
    if all(t.weak for t in in_types):   # Python numbers only: NumPy's default dtypes
        operands = tuple(t.dtype for t in in_types) + (None,) * ufunc.nout
        return ufunc.resolve_dtypes(operands)
    operands = tuple(numpy_operand(t) for t in in_types) + (None,) * ufunc.nout
    return ufunc.resolve_dtypes(operands)


def _elementwise(ufunc):
    def type_rule(in_types, params):
        loop = _ufunc_loop(ufunc, in_types)
        shape = broadcast_shapes(*[t.shape for t in in_types])
        weak = bool(params.get("weak"))   # Python operators on Python values stay Python values
        return [ArrayType(shape, d, weak) for d in loop[ufunc.nin:]]

    def input_dtypes(in_types, params):
        return _ufunc_loop(ufunc, in_types)[:ufunc.nin]

    return type_rule, input_dtypes


for _name in ELEMENTWISE_UFUNCS:
    _uf = getattr(np, _name)
    _rule, _inputs = _elementwise(_uf)
    register(_name, _inputs, kind="elementwise", ufunc=_uf)(_rule)


def where_dtype(x: ArrayType, y: ArrayType) -> np.dtype:
    return np.result_type(sample(x), sample(y))


@register("where", lambda ts, p: [np.bool_, where_dtype(ts[1], ts[2]), where_dtype(ts[1], ts[2])],
          kind="elementwise")
def _where(ts, params):
    return [ArrayType(broadcast_shapes(*[t.shape for t in ts]), where_dtype(ts[1], ts[2]),
                      ts[1].weak and ts[2].weak)]


@register("convert", kind="elementwise")
def _convert(ts, params):
    # weak: a Python number converted as Python converts it (bool to int in arithmetic).
    return [ArrayType(ts[0].shape, params["dtype"], bool(params.get("weak")))]


@register("lgamma", kind="elementwise")
def _lgamma(ts, params):
    """log|Γ(x)| of float64 values (``math.lgamma``; ``math.gamma`` takes its sign apart):
    NumPy has no such ufunc; Python's float results."""
    return [ArrayType(ts[0].shape, np.dtype(np.float64))]


@register("erf", kind="elementwise")
def _erf(ts, params):
    """``math.erf`` (``complement``: ``math.erfc``) of float64 values: NumPy has no such
    ufunc; Python's float results."""
    return [ArrayType(ts[0].shape, np.dtype(np.float64), bool(params.get("weak")))]


@register("igamma", kind="elementwise")
def _igamma(ts, params):
    """The regularized incomplete gamma function P(a, x) (``complement``: Q(a, x) = 1 -
    P), of float64 values: scipy.special's ``gammainc``/``gammaincc``, which NumPy has
    not."""
    return [ArrayType(broadcast_shapes(ts[0].shape, ts[1].shape), np.dtype(np.float64))]


@register("betainc", kind="elementwise")
def _betainc(ts, params):
    """The regularized incomplete beta function I_x(a, b) of float64 values:
    scipy.special's ``betainc``, which NumPy has not."""
    return [ArrayType(broadcast_shapes(*[t.shape for t in ts]), np.dtype(np.float64))]


@register("complex", kind="elementwise")
def _complex(ts, params):
    """The complex numbers of real parts ``re`` and imaginary parts ``im`` (of one float
    dtype), as parts: no arithmetic, which would make ``complex(0, inf)``'s real part a
    NaN. Python's ``complex(re, im)``; a write into ``a.real``."""
    return [ArrayType(broadcast_shapes(ts[0].shape, ts[1].shape),
                      np.result_type(ts[0].dtype, ts[1].dtype, np.complex64),
                      bool(params.get("weak")))]


@register("copy")
def _copy(ts, params):
    return [ts[0].strong()]


def _real_dtype(t):
    return np.empty(0, t.dtype).real.dtype


@register("real")
def _real(ts, params):
    # A Python number's .real is a Python number: weak stays weak.
    return [ArrayType(ts[0].shape, _real_dtype(ts[0]), ts[0].weak)]


@register("imag")
def _imag(ts, params):
    return [ArrayType(ts[0].shape, _real_dtype(ts[0]), ts[0].weak)]


# ------------------------------------------------------------------ structural
@register("broadcast_to")
def _broadcast_to(ts, params):
    shape = params["shape"]
    if broadcast_shapes(ts[0].shape, shape) != tuple(shape):
        raise ValueError(f"cannot broadcast shape {ts[0].shape} to {shape}")
    return [ArrayType(shape, ts[0].dtype)]


@register("reshape")
def _reshape(ts, params):
    t, shape = ts[0], params["shape"]
    if t.is_static and None not in shape and t.size != math.prod(shape):
        raise ValueError(f"cannot reshape array of size {t.size} into shape {shape}")
    return [ArrayType(shape, t.dtype)]


@register("transpose")
def _transpose(ts, params):
    perm = params["perm"]
    if sorted(perm) != list(range(ts[0].ndim)):
        raise ValueError(f"axes {perm} don't match array of {ts[0].ndim} dimensions")
    return [ArrayType(tuple(ts[0].shape[p] for p in perm), ts[0].dtype)]


def slice_length(dim, start, stop, step):
    """Length of a normalised slice; ``stop=None`` runs past the start of the axis.

    A slice of a dimension of unknown size is kept as Python wrote it, tagged "raw"."""
    if dim is None or start == "raw":
        return None
    return len(range(start, -1 if stop is None else stop, step))


@register("slice")
def _slice(ts, params):
    t = ts[0]
    shape = tuple(d if s is None else None if s[0] == "raw" else slice_length(d, *s)
                  for d, s in zip(t.shape, params["slices"]))
    return [ArrayType(shape, t.dtype)]


@register("concatenate", lambda ts, p: [np.result_type(*[t.dtype for t in ts])] * len(ts))
def _concatenate(ts, params):
    axis = params["axis"]
    dtype = np.result_type(*[t.dtype for t in ts])
    first = ts[0].shape
    for t in ts[1:]:
        if t.ndim != len(first) or any(a != b for i, (a, b) in enumerate(zip(first, t.shape))
                                        if i != axis and a is not None and b is not None):
            raise ValueError("all the input array dimensions except for the concatenation axis "
                             "must match exactly")
    dims = [t.shape[axis] for t in ts]
    shape = first[:axis] + (None if None in dims else sum(dims),) + first[axis + 1:]
    return [ArrayType(shape, dtype)]


@register("tile")
def _tile(ts, params):
    reps = params["reps"]
    return [ArrayType(tuple(None if d is None else d * r for d, r in zip(ts[0].shape, reps)), ts[0].dtype)]


@register("repeat")
def _repeat(ts, params):
    t, axis, repeats = ts[0], params["axis"], params["repeats"]
    n = t.shape[axis]
    total = (None if n is None else n * repeats) if isinstance(repeats, int) else sum(repeats)
    return [ArrayType(t.shape[:axis] + (total,) + t.shape[axis + 1:], t.dtype)]


# ------------------------------------------------------------------ reductions
def reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduction(name, out_dtype, input_dtype):
    @register(name, lambda ts, p: [input_dtype(ts[0], p)])
    def rule(ts, params):
        shape = reduced_shape(ts[0].shape, params["axes"], params["keepdims"])
        return [ArrayType(shape, out_dtype(ts[0], params))]


_param_dtype = lambda t, p: p["dtype"]  # noqa: E731  (NumPy's choice, recorded by the tracer)
_same_dtype = lambda t, p: t.dtype  # noqa: E731
for _name in ("reduce_sum", "reduce_prod", "mean"):
    _reduction(_name, _param_dtype, _param_dtype)
for _name in ("var", "std"):
    _reduction(_name, _param_dtype, lambda t, p: np.result_type(t.dtype, p["dtype"]))
for _name in ("reduce_max", "reduce_min"):
    _reduction(_name, _same_dtype, _same_dtype)
for _name in ("reduce_all", "reduce_any"):
    _reduction(_name, lambda t, p: np.dtype(np.bool_), _same_dtype)
for _name in ("argmax", "argmin"):
    _reduction(_name, lambda t, p: np.dtype(np.intp), _same_dtype)


@register("reduceat")
def _reduceat(ts, params):
    """``np.<ufunc>.reduceat(x, indices, axis=0)`` for nondecreasing ``indices`` in
    ``[0, len(x))``, in x's dtype (the tracer casts x to NumPy's result dtype first)."""
    return [ArrayType((len(params["indices"]),) + ts[0].shape[1:], ts[0].dtype)]


def _scan(name):
    @register(name, lambda ts, p: [p["dtype"]])
    def rule(ts, params):
        return [ArrayType(ts[0].shape, params["dtype"])]


_scan("cumsum")
_scan("cumprod")


@register("accumulate", lambda ts, p: [ts[0].dtype])
def _accumulate(ts, params):
    """``np.<ufunc>.accumulate(x, axis)`` of an associative ufunc (``ufunc``: maximum,
    minimum, a logical or bitwise one), in x's dtype (the tracer casts x first)."""
    return [ArrayType(ts[0].shape, ts[0].dtype)]


# -------------------------------------------------------------- linear algebra
def _result_dtypes(ts, params):
    return [np.result_type(*[t.dtype for t in ts])] * len(ts)


@register("matmul", _result_dtypes)
def _matmul(ts, params):
    a, b = ts
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("matmul op expects operands of rank >= 2 (1-D operands are reshaped by the tracer)")
    n, k1 = a.shape[-2:]
    k2, m = b.shape[-2:]
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                         f"signature (n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k1})")
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return [ArrayType(batch + (n, m), np.result_type(a.dtype, b.dtype))]


def parse_einsum(subscripts, shapes):
    """Output subscripts and letter sizes of an einsum (``...`` expanded to letters)."""
    spec = subscripts.replace(" ", "")
    lhs, _, rhs = spec.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError("more operands provided to einstein sum function than specified in the "
                         "subscripts string" if len(shapes) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the "
                         "subscripts string")
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in spec]
    ell_ndim = max([len(s) - (len(t) - 3) for t, s in zip(terms, shapes) if "..." in t] or [0])
    ell = "".join(spare[:ell_ndim])
    expanded = []
    for term, shape in zip(terms, shapes):
        if "..." in term:
            n = len(shape) - (len(term) - 3)
            term = term.replace("...", ell[ell_ndim - n:] if n else "")
        if len(term) != len(shape):
            raise ValueError("einstein sum subscripts string contains too many subscripts for operand")
        expanded.append(term)
    sizes = {}
    for term, shape in zip(expanded, shapes):
        for c, d in zip(term, shape):
            if sizes.get(c, 1) not in (1, d) and d != 1:
                raise ValueError(f"operands could not be broadcast together with remapped shapes: "
                                 f"size {sizes[c]} vs {d} for subscript '{c}'")
            if d != 1 or c not in sizes:
                sizes[c] = d
    if "->" in spec:
        out = rhs.replace("...", ell)
    else:
        letters = "".join(expanded)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    return ",".join(expanded) + "->" + out, sizes


@register("einsum", _result_dtypes)
def _einsum(ts, params):
    full, sizes = parse_einsum(params["subscripts"], [t.shape for t in ts])
    out = full.split("->")[1]
    return [ArrayType(tuple(sizes[c] for c in out), np.result_type(*[t.dtype for t in ts]))]


# -------------------------------------------------------------------- creation
@register("full")
def _full(ts, params):
    return [ArrayType(params["shape"], params["dtype"])]


@register("reshape_sized")
def _reshape_sized(ts, params):
    """``reshape`` to sizes known only at run time: None in ``shape`` where the inputs
    after the array (int64 scalars, in order) give the size."""
    if sum(d is None for d in params["shape"]) != len(ts) - 1 or any(t.ndim for t in ts[1:]):
        raise ValueError(f"reshape_sized to {params['shape']} with {len(ts) - 1} sizes")
    return [ArrayType(params["shape"], ts[0].dtype)]


@register("bitcast")
def _bitcast(ts, params):
    """The same bytes read as ``dtype`` (``ndarray.view(dtype)``): of another itemsize, the
    last axis holds the bytes in elements of the new size, as NumPy's view gives them."""
    old, new = ts[0].dtype.itemsize, np.dtype(params["dtype"]).itemsize
    shape = ts[0].shape
    if old != new:
        if not shape or shape[-1] is None or shape[-1] * old % new:
            raise ValueError(f"bitcast of {ts[0]} to {np.dtype(params['dtype'])}")
        shape = shape[:-1] + (shape[-1] * old // new,)
    return [ArrayType(shape, params["dtype"])]


declare("bitcast", numpy_name="ndarray.view(dtype)",
        no_gradient="it reads the floats' bytes as another dtype")


@register("full_sized")
def _full_sized(ts, params):
    """``full`` of a shape with sizes known only at run time: None in ``shape`` where the
    inputs (int64 scalars, in order) give the size."""
    if sum(d is None for d in params["shape"]) != len(ts) or any(t.ndim for t in ts):
        raise ValueError(f"full_sized of shape {params['shape']} with {len(ts)} sizes")
    return [ArrayType(params["shape"], params["dtype"])]


@register("arange_traced")
def _arange_traced(ts, params):
    """``np.arange(start, stop, step)`` of traced scalar bounds, in ``dtype``."""
    if len(ts) != 3 or any(t.ndim for t in ts):
        raise ValueError("arange_traced takes three scalar bounds")
    return [ArrayType((None,), params["dtype"])]


@register("arange")
def _arange(ts, params):
    return [ArrayType((params["num"],), params["dtype"])]


@register("eye")
def _eye(ts, params):
    return [ArrayType((params["n"], params["m"]), params["dtype"])]


@register("full_like")
def _full_like(ts, params):
    return [ArrayType(ts[0].shape, params["dtype"])]


declare(["floor_divide", "remainder", "fmod", "divmod", "gcd", "lcm", "power", "left_shift",
         "right_shift"], may_raise_on_ints=True)
declare(["copy", "full_like", "real", "imag", "cumsum", "cumprod", "accumulate", "convert"],
        shape_of_first=True)
# Moves and tests of values, which never set a floating-point error flag.
declare(["arange", "arange_traced", "bitcast", "broadcast_to", "concatenate", "copy", "eye",
         "full", "full_like", "full_sized", "imag", "real", "repeat", "reshape", "reshape_sized",
         "slice", "tile", "transpose", "reduce_max", "reduce_min", "argmax", "argmin",
         "reduce_all", "reduce_any", "greater", "greater_equal", "less", "less_equal", "equal",
         "not_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "isnan",
         "isinf", "isfinite", "signbit", "where", "bitwise_and", "bitwise_or", "bitwise_xor",
         "invert", "left_shift", "right_shift", "bitwise_count", "negative", "positive",
         "conjugate", "copysign", "floor", "ceil", "trunc", "rint", "fabs", "maximum",
         "minimum", "fmax", "fmin", "sign"], fp_flags=False)
# XLA has no complex cumprod.
declare("cumprod", xla_obstacle=lambda in_types, params: in_types[0].dtype.kind == "c")
# XLA's complex functions take formulas whose products of a zero and an infinity give NaN
# where NumPy's (C99's) give infinities or zeros: sin(infj) is nan+infj, not infj.
declare(["exp", "exp2", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos",
         "arctan", "arcsinh", "arccosh", "arctanh", "power", "float_power"],
        xla_obstacle=lambda in_types, params: in_types[0].dtype.kind == "c" and
        "XLA's complex {op} differs from NumPy's at infinities")
