"""The one table from IR ops to TensorFlow: ``TF_RULES[op](ctx, *inputs, **params)``.

After the passes every input already has the dtype NumPy's loop uses and
elementwise inputs broadcast to the output shape, so most rules are one line.
``ctx.out_types`` gives the IR result types.
"""
from __future__ import annotations

import contextvars

import numpy as np
import tensorflow as tf

from ..graph_ir.ops import OpTable
from . import tf_math as m
from . import trig


TF_RULES = OpTable()

# True while a graph is lowered for ``tf.vectorized_map`` (``nptf.vmap``): a rule whose
# ops pfor converts only by a loop, which fails on an empty branch of a ``tf.cond``,
# lowers without the branch.
VECTORIZED = contextvars.ContextVar("nptf_vectorized", default=False)


def rule(*names):
    def wrap(fn):
        for n in names:
            TF_RULES[n] = fn
        return fn
    return wrap


def simple(name, fn):
    TF_RULES[name] = lambda ctx, *xs, **p: fn(*xs)


def by_kind(**fns):
    """Pick an implementation by the NumPy kind of the first input ('b','i','u','f','c')."""
    def apply(*xs):
        k = m.kind(xs[0])
        for kinds, fn in fns.items():
            if k in kinds:
                return fn(*xs)
        raise NotImplementedError(f"no TensorFlow lowering for dtype kind {k!r}")
    return apply


def int_div_guard(fn):
    def apply(x, y):
        zero, y = m.safe_int_divisor(y)
        return tf.where(zero, tf.zeros_like(x), fn(x, y))
    return apply


# ---------------------------------------------------------------- arithmetic
rule("add")(lambda ctx, x, y: by_kind(b=tf.logical_or, iufc=tf.add)(
    *m.constants_apart(x, y, m.SUMS, ctx.xla)))
rule("subtract")(lambda ctx, x, y: tf.subtract(*m.constants_apart(x, y, m.SUMS, ctx.xla)))
def _exps_apart(ctx, x, y):
    """``x`` and ``y`` behind a barrier where both come from exps under XLA,
    whose simplifier rewrites exp(a) * exp(b) into exp(a + b) (and exp(a) / exp(b) into
    exp(a - b)), also through ops it removes (``exp(b) * 1.0``): finite where NumPy's
    product of an overflowing exp and a zero one is inf * 0, NaN."""
    if ctx.xla and _xla_barrier is not None and from_exp_or_pow(x, ("Exp",)) and \
            from_exp_or_pow(y, ("Exp",)):
        x, y = _xla_barrier([x, y])
    return x, y


_multiply = by_kind(b=tf.logical_and, iuf=tf.multiply, c=m.complex_multiply)
_xla_multiply = by_kind(b=tf.logical_and, i=m.wrapping_multiply, uf=tf.multiply,
                        c=m.complex_multiply)
rule("multiply")(lambda ctx, x, y: (_xla_multiply if ctx.xla else _multiply)(
    *m.constants_apart(*_exps_apart(ctx, x, y), m.PRODUCTS, ctx.xla)))
rule("divide")(lambda ctx, x, y: m.complex_divide(x, y, ctx.xla) if m.kind(x) == "c"
               else m.divide(*_exps_apart(ctx, x, y), ctx.xla))
rule("floor_divide")(lambda ctx, a, b: by_kind(iu=int_div_guard(tf.math.floordiv),
                                                f=lambda a, b: m.float_divmod(a, b, ctx.xla)[0])(a, b))
rule("remainder")(lambda ctx, a, b: by_kind(iu=int_div_guard(tf.math.floormod),
                                             f=m.float_remainder)(a, b))
def _int_fmod(x, y):
    if m.kind(x) == "u":
        return x - tf.math.floordiv(x, y) * y
    return m.widen(tf.truncatemod, x, y)


simple("fmod", by_kind(iu=int_div_guard(_int_fmod), f=tf.truncatemod))
TF_RULES["divmod"] = lambda ctx, x, y: (TF_RULES["floor_divide"](ctx, x, y),
                                        TF_RULES["remainder"](ctx, x, y))
def _as_broadcast_by(result, y):
    """``result`` (of x's shape) broadcast as ``x ** y`` would be."""
    return tf.broadcast_to(result, tf.broadcast_dynamic_shape(tf.shape(result), tf.shape(y)))


@rule("power")
def _power(ctx, x, y):
    if m.kind(x) == "c":
        return m.complex_power(x, y)
    if m.kind(x) == "f":
        # ``power`` is C's pow (where NumPy takes x ** 0.5 as sqrt the tracer emits sqrt),
        # but Grappler and XLA rewrite a constant exponent of 0.5 into sqrt (-0.0 -> -0.0,
        # not 0.0; -inf -> NaN, not inf) and of -0.5 into rsqrt (-0.0 -> -inf, not inf;
        # -inf -> NaN, not 0).
        k = tf.get_static_value(y)
        if k is not None and np.size(k) and np.all(k == 0.5):
            return _as_broadcast_by(tf.where(tf.equal(x, -np.inf), -x, tf.abs(tf.sqrt(x))), y)
        if k is not None and np.size(k) and np.all(k == -0.5):
            return _as_broadcast_by(
                tf.where(tf.equal(x, -np.inf), tf.zeros_like(x), 1 / tf.abs(tf.sqrt(x))), y)
        return _float_pow(x, y)
    # TensorFlow's integer Pow fails on a negative exponent, before the tracer's check can
    # raise NumPy's ValueError for it: the check still sees the exponent, the kernel never does.
    y = tf.maximum(y, tf.zeros_like(y))
    if m.np_dtype(x) == np.uint64:      # widened to int64, an exponent past 2**63 turns negative
        return m.integer_power(x, y)
    pow_ = m.integer_power if ctx.xla else tf.pow
    return m.widen(pow_, x, y) if m.kind(x) == "u" else pow_(x, y)
def _float_pow(x, y):
    """C's pow, which is 1 for a zero exponent whatever the base. XLA rewrites
    ``pow(exp(a), b)`` into ``exp(a * b)``, which is NaN for an infinite or NaN ``a``
    and ``b = 0``, so the zero exponent is taken apart."""
    r = tf.pow(x, y)
    return tf.where(tf.equal(y, tf.zeros_like(y)), tf.ones_like(r), r)


simple("float_power", by_kind(c=m.complex_power, f=_float_pow))
# Two's complement negation; Grappler rewrites ``0 - x`` into a Neg kernel that has no unsigned types.
simple("negative", by_kind(u=lambda x: tf.bitwise.invert(x) + tf.ones_like(x), ifc=tf.negative))
simple("positive", tf.identity)
def _infinite_part(z):
    return tf.math.is_inf(tf.math.real(z)) | tf.math.is_inf(tf.math.imag(z))


def _complex_abs(z):
    # C's hypot, which NumPy calls, is inf where either part is, NaN or not: XLA's
    # |inf+nanj| was NaN.
    r = tf.abs(z)
    return tf.where(_infinite_part(z), tf.constant(np.inf, r.dtype), r)


simple("absolute", by_kind(bu=tf.identity, fi=tf.abs, c=_complex_abs))
simple("fabs", tf.abs)
simple("sign", by_kind(u=lambda x: tf.cast(x > 0, x.dtype), fi=tf.sign, c=m.complex_sign))
def _int_reciprocal(x):
    # NumPy's integer loop computes 1 / x in C; what it returns for 0 is read off NumPy itself.
    dtype = m.np_dtype(x)
    with np.errstate(all="ignore"):
        at_zero = np.reciprocal(np.zeros(1, dtype))[0]
    zero, safe = m.safe_int_divisor(x)
    return tf.where(zero, tf.constant(at_zero, x.dtype), tf.truncatediv(tf.ones_like(x), safe))


def _complex_reciprocal(x):
    # NumPy's loop, Smith's method for 1 / x: 1 / 0j is nan+nanj there (XLA: inf+nanj).
    a, b = tf.math.real(x), tf.math.imag(x)
    real_larger = tf.abs(b) <= tf.abs(a)
    r = tf.where(real_larger, b / a, a / b)
    d = tf.where(real_larger, a + b * r, a * r + b)
    return tf.complex(tf.where(real_larger, 1 / d, r / d), tf.where(real_larger, -r / d, -1 / d))


simple("reciprocal", by_kind(iu=_int_reciprocal, f=tf.math.reciprocal, c=_complex_reciprocal))
rule("square")(lambda ctx, x: m.wrapping_multiply(x, x) if ctx.xla and m.kind(x) == "i"
               else tf.square(x))
simple("sqrt", tf.sqrt)
simple("cbrt", m.cbrt)
rule("lgamma")(lambda ctx, x: tf.math.lgamma(x))
rule("erf")(lambda ctx, x, complement: tf.math.erfc(x) if complement else tf.math.erf(x))


def _broadcast(*xs):
    # TensorFlow's igamma and betainc kernels take operands of one shape.
    shape = tf.shape(xs[0])
    for x in xs[1:]:
        shape = tf.broadcast_dynamic_shape(shape, tf.shape(x))
    return [tf.broadcast_to(x, shape) for x in xs]


rule("igamma")(lambda ctx, a, x, complement: (tf.math.igammac if complement else
                                              tf.math.igamma)(*_broadcast(a, x)))
rule("betainc")(lambda ctx, a, b, x: tf.math.betainc(*_broadcast(a, b, x)))


@rule("complex")
def _complex(ctx, re, im, weak=False):
    shape = tf.broadcast_dynamic_shape(tf.shape(re), tf.shape(im))
    return tf.complex(tf.broadcast_to(re, shape), tf.broadcast_to(im, shape))


# ------------------------------------------------------------ exp, log, trig
simple("exp", tf.exp)


def _scale_parts(z, factor):
    # NumPy scales a complex number part by part: as a complex product, (inf+0j) * ln(2)
    # has a NaN imaginary part (inf * 0).
    part = tf.math.real(z).dtype
    return tf.complex(tf.math.real(z) * tf.constant(factor, part),
                      tf.math.imag(z) * tf.constant(factor, part))


# NumPy's exp2 of a complex number is exp(z * ln 2), its product taken part by part:
# exp2(inf+0j) is inf+0j there (2 ** (inf+0j) came out inf+nanj).
simple("exp2", by_kind(c=lambda z: tf.exp(_scale_parts(z, np.log(2))),
                       f=lambda x: tf.pow(tf.constant(2, x.dtype), x)))
def _complex_expm1(z):
    # NumPy's formula, which keeps an overflowing exp(x) infinite: TensorFlow's kernel gave
    # NaN for the real part of expm1(2386+1732j), NumPy -inf.
    x, y = tf.math.real(z), tf.math.imag(z)
    half = tf.sin(y / 2)
    return tf.complex(tf.math.expm1(x) * tf.cos(y) - 2 * half * half, tf.exp(x) * tf.sin(y))


simple("expm1", by_kind(c=_complex_expm1, f=tf.math.expm1))
def _log(ctx, x):
    # XLA's algebraic simplifier rewrites log(exp(a)) to a and log(a ** b) to b * log(|a|),
    # where NumPy's log(exp(1000.0)) is inf and log((-1.5) ** 0.5) NaN (it gave 0.2):
    # a barrier keeps the argument's own value. A complex log(exp(4j)) came out 4j even so
    # (NumPy: -2.28j), so that one is taken apart into real operations.
    if ctx.xla and from_exp_or_pow(x):
        if x.dtype.is_complex:
            return _log_by_parts(x)
        if _xla_barrier is not None:
            (x,) = _xla_barrier([x])
    if x.dtype.is_complex:
        # An infinite part makes the real part inf, as in C's clog (XLA's log(inf+nanj)
        # was nan+nanj, NumPy's inf+nanj).
        return tf.where(_infinite_part(x), _log_by_parts(x), tf.math.log(x))
    return tf.math.log(x)


def _log_by_parts(z):
    return tf.complex(tf.math.log(_complex_abs(z)), tf.math.atan2(tf.math.imag(z),
                                                                  tf.math.real(z)))


# Ops XLA's simplifier may remove or look through on the way to an exp or a power
# (log(exp(a) * 1.0) became log(exp(a)), then a).
_SEEN_THROUGH = {"Identity", "Reshape", "Transpose", "ExpandDims", "Squeeze", "BroadcastTo",
                 "Mul", "RealDiv", "AddV2", "Sub", "Neg", "Cast", "StridedSlice", "Slice",
                 "ConcatV2", "ReverseV2", "SelectV2", "Select", "Complex", "Real", "Imag"}


def from_exp_or_pow(x, types=("Exp", "Pow"), depth=8, seen=None):
    """Whether ``x`` is computed by an exp or a power (ops of ``types``), possibly through
    ops XLA's simplifier looks through."""
    seen = set() if seen is None else seen
    op = x.op
    if op.type in types:
        return True
    if depth == 0 or op.type not in _SEEN_THROUGH or op.name in seen:
        return False
    seen.add(op.name)
    return any(from_exp_or_pow(t, types, depth - 1, seen) for t in op.inputs)


try:
    from tensorflow.compiler.tf2xla.ops.gen_xla_ops import xla_optimization_barrier as _xla_barrier
except ImportError:     # another TensorFlow build: XLA's rewrites stay
    _xla_barrier = None
rule("log")(_log)


def _log_base(log_of_base, log_of_e):
    # NumPy's complex log10 and log2 multiply log(z)'s parts by log10(e) or log2(e): a
    # complex division by ln(10) gave log10(0j) an imaginary part of NaN (NumPy: -inf+0j).
    def rule_(ctx, x):
        if x.dtype.is_complex:
            return _scale_parts(_log(ctx, x), log_of_e)
        return _log(ctx, x) / tf.constant(log_of_base, x.dtype)
    return rule_


def _complex_log1p(z):
    # NumPy's formula: log1p(-1+0j) is -inf+0j there (TensorFlow's kernel: -inf+nanj;
    # XLA's: 0j), log1p(1j * inf) inf+1.57j (TensorFlow: nan+nanj).
    x1, y = tf.math.real(z) + 1, tf.math.imag(z)
    return _log_by_parts(tf.complex(x1, y))


rule("log2")(_log_base(np.log(2), np.log2(np.e)))
rule("log10")(_log_base(np.log(10), np.log10(np.e)))
simple("log1p", by_kind(c=_complex_log1p, f=tf.math.log1p))


def _logaddexp(x, y, log_of_2, exp_, log1p_):
    same = tf.equal(x, y)
    d = x - y
    big = tf.where(d > 0, x + log1p_(exp_(-d)), y + log1p_(exp_(d)))
    return tf.where(same, x + log_of_2, tf.where(m.is_nan(d), d, big))


simple("logaddexp", lambda x, y: _logaddexp(x, y, tf.constant(np.log(2), x.dtype), tf.exp,
                                            tf.math.log1p))
simple("logaddexp2", lambda x, y: _logaddexp(
    x, y, tf.constant(1, x.dtype), lambda v: tf.pow(tf.constant(2, x.dtype), v),
    lambda v: tf.math.log1p(v) / tf.constant(np.log(2), x.dtype)))
TF_RULES["sin"] = lambda ctx, x, unit_argument=False: \
    trig.sin(x, unit_argument) if ctx.xla else tf.sin(x)
TF_RULES["cos"] = lambda ctx, x, unit_argument=False: \
    trig.cos(x, unit_argument) if ctx.xla else tf.cos(x)
for _name, _fn in [("tan", tf.tan), ("arcsin", tf.asin),
                   ("arccos", tf.acos), ("arctan", tf.atan),
                   ("tanh", tf.tanh), ("arcsinh", tf.asinh), ("arccosh", tf.acosh),
                   ("arctanh", tf.atanh)]:
    simple(_name, _fn)
for _name, _sine, _fn in [("sinh", True, tf.sinh), ("cosh", False, tf.cosh)]:
    TF_RULES[_name] = (lambda sine, fn: lambda ctx, x: m.hyperbolic(x, sine) if ctx.xla and
                       x.dtype in (tf.float32, tf.float64) else fn(x))(_sine, _fn)


def _arctan2(y, x):
    # C's atan2 of two zeros: +-0 or +-pi by their signs. XLA folds a constant
    # atan2(0.0, 0.0) to NaN (np.angle of a comparison XLA proves False).
    both_zero = tf.equal(y, 0) & tf.equal(x, 0)
    at_zero = tf.where(m.signbit(x), m.copysign(tf.constant(np.pi, y.dtype) + tf.zeros_like(y), y),
                       m.copysign(tf.zeros_like(y), y))
    return tf.where(both_zero, at_zero, tf.atan2(y, x))


simple("arctan2", _arctan2)


def _hypot(x, y):
    ax, ay = tf.abs(x), tf.abs(y)
    big, small = tf.maximum(ax, ay), tf.minimum(ax, ay)
    safe = tf.where(tf.equal(big, 0), tf.ones_like(big), big)
    r = big * tf.sqrt(1 + tf.square(small / safe))
    r = tf.where(tf.equal(big, 0), tf.zeros_like(r), r)
    r = tf.where(tf.math.is_nan(x) | tf.math.is_nan(y), x + y, r)
    return tf.where(tf.math.is_inf(ax) | tf.math.is_inf(ay), tf.constant(np.inf, r.dtype) + tf.zeros_like(r), r)


simple("hypot", _hypot)


def _complex_sqrt(z):
    """C99's ``csqrt`` as NumPy computes it: ``t = sqrt((|x| + |z|) / 2)``, then
    ``(t, y / 2t)`` or ``(|y| / 2t, copysign(t, y))`` by the sign of ``x``. XLA's own
    complex sqrt goes through the polar form, whose real part of ``sqrt(-4 + 0j)`` is
    about -1e-8 instead of 0 (``sqrt(z) > 0`` then compares the other way), and
    TensorFlow's kernel drops the sign of a zero imaginary part."""
    x, y = tf.math.real(z), tf.math.imag(z)
    t = tf.sqrt(tf.abs(x) * 0.5 + _hypot(x, y) * 0.5)
    twice = 2 * tf.where(tf.equal(t, 0), tf.ones_like(t), t)
    re = tf.where(x >= 0, t, tf.abs(y) / twice)
    im = tf.where(x >= 0, y / twice, m.copysign(t, y))
    # An infinite imaginary part wins over anything, NaN included.
    inf = tf.math.is_inf(y)
    re = tf.where(inf, tf.abs(y), re)
    im = tf.where(inf, y, im)
    return tf.complex(re, im)


simple("sqrt", by_kind(c=_complex_sqrt, biuf=tf.sqrt))
simple("deg2rad", lambda x: x * tf.constant(np.pi / 180, x.dtype))
simple("radians", lambda x: x * tf.constant(np.pi / 180, x.dtype))
simple("rad2deg", lambda x: x * tf.constant(180 / np.pi, x.dtype))
simple("degrees", lambda x: x * tf.constant(180 / np.pi, x.dtype))

# ----------------------------------------------------------------- rounding
simple("floor", by_kind(biu=tf.identity, f=tf.floor))
simple("ceil", by_kind(biu=tf.identity, f=tf.math.ceil))
simple("trunc", by_kind(biu=tf.identity, f=lambda x: tf.where(x < 0, tf.math.ceil(x), tf.floor(x))))
simple("rint", by_kind(biu=tf.identity, f=tf.math.rint,
                      c=lambda x: tf.complex(tf.math.rint(tf.math.real(x)), tf.math.rint(tf.math.imag(x)))))


def _modf(x):
    whole = tf.where(x < 0, tf.math.ceil(x), tf.floor(x))
    frac = tf.where(tf.math.is_inf(x), m.copysign(tf.zeros_like(x), x), x - whole)
    return frac, whole


simple("modf", _modf)
simple("frexp", m.frexp)
simple("ldexp", m.ldexp)

# ------------------------------------------------------ comparison, extrema
TF_RULES["maximum"] = lambda ctx, x, y: m.extremum(x, y, True, fused=ctx.xla)
TF_RULES["minimum"] = lambda ctx, x, y: m.extremum(x, y, False, fused=ctx.xla)
simple("fmax", lambda x, y: m.extremum(x, y, True, propagate_nan=False))
simple("fmin", lambda x, y: m.extremum(x, y, False, propagate_nan=False))
simple("less", lambda x, y: m.less(x, y))
simple("less_equal", lambda x, y: m.less(x, y, or_equal=True))
simple("greater", lambda x, y: m.less(y, x))
simple("greater_equal", lambda x, y: m.less(y, x, or_equal=True))
simple("equal", m.equal)
simple("not_equal", lambda x, y: tf.logical_not(m.equal(x, y)))

# ------------------------------------------------------------ logic, bits
simple("logical_and", lambda x, y: tf.logical_and(m.to_bool(x), m.to_bool(y)))
simple("logical_or", lambda x, y: tf.logical_or(m.to_bool(x), m.to_bool(y)))
simple("logical_xor", lambda x, y: tf.not_equal(m.to_bool(x), m.to_bool(y)))
simple("logical_not", lambda x: m.logical_not(m.to_bool(x)))
simple("bitwise_and", by_kind(b=tf.logical_and, iu=tf.bitwise.bitwise_and))
simple("bitwise_or", by_kind(b=tf.logical_or, iu=tf.bitwise.bitwise_or))
simple("bitwise_xor", by_kind(b=tf.not_equal, iu=tf.bitwise.bitwise_xor))
simple("invert", by_kind(b=m.logical_not, iu=tf.bitwise.invert))
simple("left_shift", lambda x, s: m.shift(x, s, left=True))
simple("right_shift", lambda x, s: m.shift(x, s, left=False))
simple("bitwise_count", lambda x: tf.raw_ops.PopulationCount(x=tf.abs(x) if m.kind(x) == "i" else x))

# ---------------------------------------------------------- float classes
simple("isnan", m.is_nan)
simple("isinf", by_kind(biu=lambda x: tf.zeros_like(x, dtype=tf.bool), f=tf.math.is_inf,
                        c=lambda x: tf.math.is_inf(tf.math.real(x)) | tf.math.is_inf(tf.math.imag(x))))
simple("isfinite", by_kind(biu=lambda x: tf.ones_like(x, dtype=tf.bool), f=tf.math.is_finite,
                           c=lambda x: tf.math.is_finite(tf.math.real(x)) &
                           tf.math.is_finite(tf.math.imag(x))))
simple("signbit", m.signbit)
simple("copysign", m.copysign)
simple("nextafter", m.nextafter)
simple("heaviside", lambda x, h: tf.where(x < 0, tf.zeros_like(x), tf.where(
    x > 0, tf.ones_like(x), tf.where(tf.equal(x, 0), h, x))))
simple("conjugate", by_kind(c=tf.math.conj, biuf=tf.identity))
simple("gcd", m.gcd)
simple("lcm", m.lcm)
simple("spacing", m.spacing)
simple("where", tf.where)


@rule("convert")
def _convert(ctx, x, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return m.to_bool(x)
    if m.kind(x) == "b" and dtype.kind in "fc":
        # XLA folds x / float(False) to 0; a select keeps IEEE division.
        return tf.where(x, tf.ones_like(x, tf.as_dtype(dtype)), tf.zeros_like(x, tf.as_dtype(dtype)))
    if m.kind(x) in "fc" and dtype.kind in "iu" and dtype != np.int64:
        # NumPy (C casts on x86) wraps out-of-range floats through int64; XLA would saturate.
        x = tf.cast(tf.math.real(x) if m.kind(x) == "c" else x, tf.int64)
        if dtype.kind == "u":
            # The wrap of negative values computed as a floor modulo: XLA on CPU takes
            # float -> int64 -> unsigned (a cast, a bit mask or a bitcast) -> float for a
            # round trip and gives back the negative value.
            if dtype.itemsize < 8:
                x = tf.math.floormod(x, tf.constant(1 << dtype.itemsize * 8, tf.int64))
            else:
                low = tf.cast(tf.math.floormod(x, tf.constant(1 << 32, tf.int64)), tf.uint64)
                high = tf.math.floormod(tf.math.floordiv(x, tf.constant(1 << 32, tf.int64)),
                                        tf.constant(1 << 32, tf.int64))
                return tf.cast(high, tf.uint64) * tf.constant(1 << 32, tf.uint64) + low
    if m.kind(x) == "c" and dtype.kind != "c":
        # NumPy drops the imaginary part; taking the real part explicitly keeps
        # TensorFlow's warning about that cast off the user's terminal.
        x = tf.math.real(x)
    return tf.cast(x, tf.as_dtype(dtype))


simple("copy", tf.identity)
simple("real", by_kind(c=tf.math.real, biuf=tf.identity))
simple("imag", by_kind(c=tf.math.imag, biuf=tf.zeros_like))


def _half_in_float32(fn):
    """``fn`` computing float16 operands in float32 and rounding back, as NumPy's float16
    loops do: TensorFlow's own float16 kernels lose ulps (log2 as log(x) / log(2)) or, under
    XLA, whole values (a sum of exp2 of 1.0 counts 1.0 for each), and some (rint,
    truncatemod) do not exist."""
    def rule_(ctx, *xs, **params):
        if not any(x.dtype == tf.float16 for x in xs):
            return fn(ctx, *xs, **params)
        outs = fn(ctx, *[tf.cast(x, tf.float32) if x.dtype == tf.float16 else x for x in xs],
                  **params)
        single = not isinstance(outs, tuple)
        outs = tuple(tf.cast(o, tf.float16) if o.dtype == tf.float32 else o
                     for o in ((outs,) if single else outs))
        return outs[0] if single else outs
    return rule_


for _name in ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "sin",
              "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
              "arccosh", "arctanh", "power", "arctan2", "hypot", "logaddexp", "logaddexp2",
              "deg2rad", "rad2deg", "degrees", "radians", "floor_divide", "remainder", "fmod",
              "rint", "ldexp", "frexp"):
    TF_RULES[_name] = _half_in_float32(TF_RULES[_name])
