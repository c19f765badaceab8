"""TensorFlow building blocks with NumPy's exact semantics.

TensorFlow's kernels differ from NumPy at the edges (integer division by
zero, floor division of floats, NaN in max/min, shifts past the bit width,
missing kernels for bool/unsigned dtypes); these helpers close the gaps.
"""
from __future__ import annotations

import contextlib
import contextvars

import numpy as np
import tensorflow as tf

_SAME_WIDTH_INT = {2: tf.int16, 4: tf.int32, 8: tf.int64}

# The small constants of each graph being lowered: TensorFlow makes a new Const op for
# every Python number or list an op takes (a strided slice's begin, end and strides, a
# reshape's shape), and building an op costs tens of microseconds in Python; lowering a
# graph makes the same few constants thousands of times. Per graph (each loop body and
# branch has its own), so a tensor never crosses into another graph, and only while a
# lowering runs (``shared_constants``), which holds the graphs until it ends.
_CONSTANTS = contextvars.ContextVar("nptf_constants", default=None)
_CACHED_UP_TO = 256     # elements: larger constants are rarely repeated, and hashing costs


@contextlib.contextmanager
def shared_constants():
    """Inside, ``constant`` makes each small constant once per graph."""
    token = _CONSTANTS.set({})
    try:
        yield
    finally:
        _CONSTANTS.reset(token)


def constant(value, dtype=None):
    """``tf.constant(value, dtype)``, made once per graph inside ``shared_constants``."""
    if isinstance(dtype, tf.DType):
        dtype = dtype.as_numpy_dtype
    value = np.asarray(value, dtype=dtype)
    graphs = _CONSTANTS.get()
    if graphs is None or value.size > _CACHED_UP_TO or value.dtype == object or \
            tf.executing_eagerly():
        return tf.constant(value, dtype=tf.as_dtype(value.dtype))
    graph = tf.compat.v1.get_default_graph()
    _, made = graphs.setdefault(id(graph), (graph, {}))
    key = (value.dtype.str, value.shape, value.tobytes())
    tensor = made.get(key)
    if tensor is None:
        tensor = made[key] = tf.constant(value, dtype=tf.as_dtype(value.dtype))
    return tensor


def index_constants(*lists):
    """Lists of indices (a slice's begin, end and strides; a shape) as int32 constants,
    all int64 when one value is past int32's range."""
    lists = [list(values) for values in lists]
    wide = any(not -2**31 <= v < 2**31 for values in lists for v in values)
    return [constant(values, tf.int64 if wide else tf.int32) for values in lists]


def index_constant(values):
    return index_constants(values)[0]


def np_dtype(x) -> np.dtype:
    return np.dtype(x.dtype.as_numpy_dtype)


def kind(x) -> str:
    return np_dtype(x).kind


def zeros_like(x):
    return tf.zeros_like(x)


def signbit(x):
    """Sign bit of floats (true for -0.0 and negative NaNs), ``x < 0`` for integers."""
    if kind(x) == "f":
        return tf.bitcast(x, _SAME_WIDTH_INT[np_dtype(x).itemsize]) < 0
    if kind(x) in "ub":
        return tf.zeros_like(x, dtype=tf.bool)
    return x < 0


def copysign(x, y):
    return tf.where(signbit(y), -tf.abs(x), tf.abs(x))


def is_nan(x):
    if kind(x) == "c":
        return tf.math.is_nan(tf.math.real(x)) | tf.math.is_nan(tf.math.imag(x))
    if kind(x) == "f":
        return tf.math.is_nan(x)
    return tf.zeros_like(x, dtype=tf.bool)


def logical_not(b):
    """``not b`` that Grappler cannot fold into its operand: it rewrites LogicalNot of
    ``x >= y`` into ``x < y`` (and a LogicalXor with True likewise), which is not the same
    when ``x`` or ``y`` is NaN (``not (nan >= 1)`` is True, ``nan < 1`` is False)."""
    return tf.equal(b, tf.zeros_like(b))


def widen(fn, x, *rest, to=tf.int64):
    """Run ``fn`` in a wider dtype and cast back (wrap-around arithmetic agrees mod 2^n)."""
    out = fn(tf.cast(x, to), *[tf.cast(r, to) for r in rest])
    return tf.cast(out, x.dtype)


def divide(x, y, xla=False):
    """Real ``x / y`` correctly rounded, as NumPy divides.

    Grappler's constant folding (ReduceDivToReciprocalMul) and XLA's algebraic simplifier
    turn a division by a constant into a multiplication by its reciprocal, one ulp off
    for most divisors, so ``np.floor(x / 0.1)`` would land in the next bin. A constant
    divisor other than a power of two (whose reciprocal is exact) is hidden from them.
    """
    if _folds_to_constant(y) and not _power_of_two(y):
        y = _opaque(y, xla)
    return tf.math.truediv(x, y)


# TensorFlow ops whose results Grappler's constant push-down and XLA's simplifier regroup
# with a constant operand of the sum or product that consumes them.
SUMS = frozenset({"Add", "AddV2", "AddN", "BiasAdd", "Sub", "Neg"})
PRODUCTS = frozenset({"Mul", "RealDiv", "Div", "Neg"})


def constants_apart(x, y, chain, xla=False):
    """``x`` and ``y`` of a float or complex sum (``chain=SUMS``) or product
    (``PRODUCTS``), where a constant one meets another such op's result, held apart:
    Grappler's constant push-down and XLA's simplifier regroup ``(a + b) + 1.0`` as
    ``a + (b + 1.0)`` and ``(x - 1e17) + 1.0`` as ``x + (1.0 - 1e17)``, a whole unit off
    NumPy's answer (1e17 - 1e17 + 1 against 0). Grappler does not fold through a
    placeholder; XLA's simplifier does not look through a barrier that also holds a
    computed value (one that holds only the constant is folded first)."""
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return x, y
    for first, (const, other) in ((True, (x, y)), (False, (y, x))):
        if _folds_to_constant(const) and _op_type(other) in chain:
            if xla and x.dtype.is_complex:
                # XLA looks through a barrier of complex values (it computes on their
                # parts): the parts go through it.
                from tensorflow.compiler.tf2xla.python import xla as tf2xla
                parts = tf2xla.optimization_barrier(tf.math.real(const), tf.math.imag(const),
                                                    tf.math.real(other), tf.math.imag(other))
                const, other = tf.complex(parts[0], parts[1]), tf.complex(parts[2], parts[3])
            elif xla:
                from tensorflow.compiler.tf2xla.python import xla as tf2xla
                const, other = tf2xla.optimization_barrier(const, other)
            else:
                const = tf.raw_ops.PlaceholderWithDefault(input=const, shape=const.shape)
            return (const, other) if first else (other, const)
    return x, y


def _op_type(t):
    try:
        return t.op.type
    except AttributeError:      # an eager tensor
        return None


def _folds_to_constant(t, depth=8):
    """Whether the graph tensor ``t`` depends on constants only (what folding makes a
    constant); False for eager tensors, which run as they are."""
    try:
        op = t.op
    except AttributeError:
        return False
    if op.type == "Const":
        return True
    if depth == 0 or not op.inputs or op.type in ("Placeholder", "PlaceholderWithDefault"):
        return False
    return all(_folds_to_constant(i, depth - 1) for i in op.inputs)


def _power_of_two(y):
    value = tf.get_static_value(y)
    if value is None or np.asarray(value).dtype.kind != "f":
        return False
    value = np.asarray(value)
    with np.errstate(divide="ignore", over="ignore"):
        return bool(np.all(np.abs(np.frexp(value)[0]) == 0.5) and np.all(np.isfinite(1 / value)))


def _opaque(y, xla):
    if xla:
        return _xla_barrier(y)
    # A placeholder's value may be fed, so Grappler does not fold through it.
    return tf.raw_ops.PlaceholderWithDefault(input=y, shape=y.shape)


def _xla_barrier(y):
    from tensorflow.compiler.tf2xla.python import xla as tf2xla
    return tf2xla.optimization_barrier(y)[0]


def complex_divide(x, y, xla=False):
    """NumPy's complex division: Smith's method, and ``x / 0`` as ``(re / +0, im / +0)``
    (infinities, where TensorFlow's kernel gives nan+nanj and XLA's takes the signs of
    the zero's parts). Under XLA too: XLA's own division rounds differently from NumPy
    for most operands, where Smith's, written out, agrees but for the products and sums
    XLA fuses into FMAs; and its answers for infinite or NaN parts are C99's, not NumPy's."""
    a, b, c, d = tf.math.real(x), tf.math.imag(x), tf.math.real(y), tf.math.imag(y)
    c_abs = tf.abs(c)
    zero = tf.logical_and(tf.equal(c_abs, 0), tf.equal(d, 0))
    smith = _smith_divide(a, b, c, d)
    by_zero = tf.complex(a / c_abs, b / c_abs)
    return tf.where(zero, by_zero, smith)


def _all_finite(*parts):
    finite = tf.math.is_finite(parts[0])
    for part in parts[1:]:
        finite = tf.logical_and(finite, tf.math.is_finite(part))
    return finite


def _smith_divide(a, b, c, d):
    """(a + bj) / (c + dj) as NumPy's loop computes it (the divisor nonzero)."""
    real_larger = tf.abs(c) >= tf.abs(d)
    rat = tf.where(real_larger, d / c, c / d)       # the unused side may be inf/nan
    scl = 1 / tf.where(real_larger, c + d * rat, d + c * rat)
    re = tf.where(real_larger, (a + b * rat) * scl, (a * rat + b) * scl)
    im = tf.where(real_larger, (b - a * rat) * scl, (b * rat - a) * scl)
    return tf.complex(re, im)


def complex_power(x, y):
    """NumPy's complex power at a zero base or exponent, where ``exp(y log x)`` gives NaN or
    infinities: ``x ** 0`` is 1 (NaN too), ``0 ** y`` is 0 when ``y.real > 0``, else NaN."""
    def is_zero(z):
        return tf.logical_and(tf.equal(tf.math.real(z), 0), tf.equal(tf.math.imag(z), 0))
    out = _integer_exponent(x, y, tf.pow(x, y))
    zero_exponent, zero_base = is_zero(y), is_zero(x)
    nan = tf.constant(complex(np.nan, np.nan), out.dtype)
    at_zero = tf.where(tf.math.real(y) > 0, tf.zeros_like(out), nan)
    return tf.where(zero_exponent, tf.ones_like(out), tf.where(zero_base, at_zero, out))


def _integer_exponent(x, y, general):
    """NumPy raises a complex number to a whole exponent below 100 in size by repeated
    multiplication (exact where exp(y log x) is not: 3 ** (1+0j) came out 3.0000000000000004),
    and takes the reciprocal for a negative one."""
    yr = tf.math.real(y)
    whole = tf.equal(tf.math.imag(y), 0) & tf.equal(yr, tf.round(yr)) & (tf.abs(yr) < 100)
    n = tf.cast(tf.where(whole, tf.abs(yr), tf.zeros_like(yr)), tf.int32)
    x = tf.broadcast_to(x, tf.shape(general))     # x + 0 would turn -0.0 into 0.0
    result, base = tf.ones_like(general), x
    for bit in range(7):
        odd = tf.not_equal(tf.bitwise.bitwise_and(n, 1 << bit), 0)
        result = tf.where(odd, multiply_as_numpy(result, base), result)
        if bit < 6:
            base = multiply_as_numpy(base, base)
    result = tf.where(yr < 0, complex_divide(tf.ones_like(result), result), result)
    # As NumPy, exponents 1, 2 and 3 multiply x itself, not 1 * x: (1e200+0j) ** 2 is
    # inf+0j there, where 1 * (inf+0j) has a NaN imaginary part.
    square = multiply_as_numpy(x, x)
    for k, power in ((3, multiply_as_numpy(x, square)), (2, square), (1, x)):
        result = tf.where(tf.equal(yr, k), power, result)
    return tf.where(whole, result, general)


def multiply_as_numpy(a, b):
    """NumPy's complex product, part by part: Grappler takes ``ones * x`` for ``x``, where
    NumPy's 1 * (0+infj) is nan+infj (0 * inf in the real part)."""
    ar, ai, br, bi = tf.math.real(a), tf.math.imag(a), tf.math.real(b), tf.math.imag(b)
    return tf.complex(ar * br - ai * bi, ar * bi + ai * br)


def complex_multiply(a, b):
    """``a * b`` as NumPy's loop computes it, (ac - bd) + (ad + bc)j, where a part is
    infinite or NaN: TensorFlow's kernel recovers infinities as C99 does ((-inf+nanj) * 1
    is -inf+nanj, NumPy's nan+nanj) and XLA takes ``x * 1`` for ``x`` ((-inf+0j) * 1 is
    -inf+nanj in NumPy). Finite operands take the kernel, whose products XLA fuses."""
    finite = _all_finite(tf.math.real(a), tf.math.imag(a), tf.math.real(b), tf.math.imag(b))
    return tf.where(finite, a * b, multiply_as_numpy(a, b))


def complex_sign(z):
    """NumPy's sign of a complex number: z / |z|, with an infinite part giving its own sign
    (sign(infj) is 1j) and NaN where both parts are infinite or |z| is NaN."""
    re, im = tf.math.real(z), tf.math.imag(z)
    inf_re, inf_im = tf.math.is_inf(re), tf.math.is_inf(im)
    # C's hypot, as NumPy's: infinite where a part is, NaN or not (XLA's |inf+nanj| is NaN).
    size = tf.where(inf_re | inf_im, tf.constant(np.inf, re.dtype), tf.abs(z))
    one = tf.ones_like(re)
    sign_of = lambda part: tf.where(part > 0, one, -one)      # noqa: E731
    zero = tf.zeros_like(re)
    nan = tf.fill(tf.shape(re), tf.constant(np.nan, re.dtype))
    safe = tf.where(tf.equal(size, 0) | tf.math.is_inf(size), one, size)
    out_re = tf.where(tf.equal(size, 0), zero, re / safe)
    out_im = tf.where(tf.equal(size, 0), zero, im / safe)
    out_re = tf.where(inf_re, sign_of(re), tf.where(inf_im, zero, out_re))
    out_im = tf.where(inf_im, sign_of(im), tf.where(inf_re, zero, out_im))
    both = (inf_re & inf_im) | tf.math.is_nan(size)
    return tf.complex(tf.where(both, nan, out_re), tf.where(both, nan, out_im))


_UNSIGNED = {tf.int8: tf.uint8, tf.int16: tf.uint16, tf.int32: tf.uint32, tf.int64: tf.uint64}


def wrapping_multiply(x, y):
    """``x * y`` of signed integers, wrapping around as NumPy does, under XLA: computed in
    the unsigned type of the same width (the same bits). XLA takes a signed ``x * x`` to
    be at least 0 (no overflow), and simplifies what follows by it: ``abs``, ``< 0``,
    floor division and selects on the square of an int8 of -116 (144, wrapped to -112)
    came out as if it were 144."""
    unsigned = _UNSIGNED.get(x.dtype)
    if unsigned is None:
        return x * y
    return tf.bitcast(tf.bitcast(x, unsigned) * tf.bitcast(y, unsigned), x.dtype)


def integer_power(x, y):
    """``x ** y`` for integers with ``y >= 0``, squaring over every bit of ``y`` and
    wrapping around as NumPy does. XLA's own integer power reads the exponent's low six
    bits only: ``2 ** 64`` came out 1, ``3 ** 64`` as 1 (NumPy: 0 and 12297829382473034753)."""
    result, base = tf.ones_like(x), x
    for _ in range(np_dtype(y).itemsize * 8):
        result = tf.where(tf.equal(tf.bitwise.bitwise_and(y, tf.ones_like(y)), 1),
                          wrapping_multiply(result, base), result)
        base = wrapping_multiply(base, base)
        y = tf.bitwise.right_shift(y, tf.ones_like(y))
    return result


def safe_int_divisor(y):
    zero = tf.equal(y, tf.zeros_like(y))
    return zero, tf.where(zero, tf.ones_like(y), y)


def float_remainder(a, b):
    """NumPy's ``npy_divmod``'s remainder alone (``np.mod``, ``%``): the quotient's ops
    are not built for a value nobody reads."""
    fmod = tf.truncatemod(a, b)
    adjust = tf.not_equal(fmod, 0) & tf.not_equal(b < 0, fmod < 0)
    mod = tf.where(adjust, fmod + b, fmod)
    mod = tf.where(tf.equal(mod, 0), copysign(tf.zeros_like(mod), b), mod)
    return tf.where(tf.equal(b, 0), fmod, mod)


def float_divmod(a, b, xla=False):
    """NumPy's ``npy_divmod`` for floats: (floor_divide, remainder)."""
    mod = tf.truncatemod(a, b)
    div = divide(a - mod, b, xla)
    adjust = tf.not_equal(mod, 0) & tf.not_equal(b < 0, mod < 0)
    mod = tf.where(adjust, mod + b, mod)
    div = tf.where(adjust, div - 1, div)
    mod = tf.where(tf.equal(mod, 0), copysign(tf.zeros_like(mod), b), mod)
    floordiv = tf.math.floor(div)
    floordiv = tf.where(div - floordiv > 0.5, floordiv + 1, floordiv)
    floordiv = tf.where(tf.equal(div, 0), copysign(tf.zeros_like(div), a / b), floordiv)
    by_zero = tf.equal(b, 0)
    floordiv = tf.where(by_zero, a / b, floordiv)
    mod = tf.where(by_zero, tf.truncatemod(a, b), mod)
    return floordiv, mod


def cbrt(x):
    """NumPy's cbrt, to within an ulp: ``|x| ** (1/3)`` alone misses by the rounding of 1/3
    (13 ulps in float32, 101 in float64, cbrt(64.0) 3.9999999999999996), and float16's
    1/3 by a whole ulp. float16 and float32 take the power in float64; one Newton step
    then corrects it, and the sign is x's (cbrt(-0.0) is -0.0)."""
    a = tf.abs(tf.cast(x, tf.float64))
    y = tf.pow(a, tf.constant(1 / 3, tf.float64))
    regular = tf.math.is_finite(y) & (y > 0)
    safe = tf.where(regular, y, tf.ones_like(y))
    y = tf.where(regular, safe - (safe - a / (safe * safe)) / 3, y)
    return copysign(tf.cast(y, x.dtype), x)


def complex_less(x, y, or_equal=False):
    """NumPy orders complex numbers lexicographically (real part first); a NaN imaginary
    part on either side makes the order false even where the real parts decide."""
    xr, xi, yr, yi = tf.math.real(x), tf.math.imag(x), tf.math.real(y), tf.math.imag(y)
    tie = tf.equal(xr, yr)
    ordered = ~tf.math.is_nan(xi) & ~tf.math.is_nan(yi)
    return ((xr < yr) & ordered) | (tie & ((xi <= yi) if or_equal else (xi < yi)))


def less(x, y, or_equal=False):
    k = kind(x)
    if k == "c":
        return complex_less(x, y, or_equal)
    if k == "b":
        x, y = tf.cast(x, tf.int8), tf.cast(y, tf.int8)
    if _signed_unsigned(x, y):
        # NumPy compares int64 with uint64 by value (its loop takes one of each).
        if x.dtype == tf.int64:
            return (x < 0) | less(tf.cast(x, tf.uint64), y, or_equal)
        return (y >= 0) & less(x, tf.cast(y, tf.uint64), or_equal)
    return tf.less_equal(x, y) if or_equal else tf.less(x, y)


def _signed_unsigned(x, y):
    return {x.dtype, y.dtype} == {tf.int64, tf.uint64}


def equal(x, y):
    if _signed_unsigned(x, y):
        signed = x if x.dtype == tf.int64 else y
        return (signed >= 0) & tf.equal(tf.cast(x, tf.uint64), tf.cast(y, tf.uint64))
    return tf.equal(x, y)


def _scalar_constant(x):
    """The value of a scalar constant (a literal in the IR), else None."""
    if x.shape.rank is not None and x.shape.num_elements() == 1:
        return tf.get_static_value(x)
    return None


def _extremum_with_constant(x, c_tensor, c, take_max, c_first, fused):
    """maximum/minimum of ``x`` and a scalar constant ``c`` (not NaN), as NumPy computes it:
    maximum(a, b) = a if isnan(a) or a > b else b (minimum with <; float16 keeps a on
    ties: >=, <=). Relu is maximum(x, 0), so this is worth its cases.

    TensorFlow's Maximum/Minimum keep NaN from either side (checked on every float dtype
    and both of Eigen's code paths) and differ from NumPy only on the sign of a zero tie,
    so they serve as they are against a constant that is not zero. In maximum(x, +0.0)
    NumPy's tie gives +0.0, as ``abs`` of the result does (NaN stays NaN). Other zero
    ties, and XLA (which fuses it all anyway), take one comparison and one select:
    exact, but a select costs the plain executor three times a maximum."""
    ties_to_a = x.dtype == tf.float16
    op = tf.maximum if take_max else tf.minimum
    if not fused:
        if c != 0:
            return op(x, c_tensor)
        if take_max and ties_to_a == c_first and not np.signbit(c):     # the tie gives +0
            return tf.abs(op(x, c_tensor))
    if c_first:             # a NaN in x fails the test and is kept
        if take_max:
            keep_c = tf.greater_equal(c_tensor, x) if ties_to_a else tf.greater(c_tensor, x)
        else:
            keep_c = tf.less_equal(c_tensor, x) if ties_to_a else tf.less(c_tensor, x)
    elif take_max:          # here too: x is kept where the test fails
        keep_c = tf.less(x, c_tensor) if ties_to_a else tf.less_equal(x, c_tensor)
    else:
        keep_c = tf.greater(x, c_tensor) if ties_to_a else tf.greater_equal(x, c_tensor)
    return tf.where(keep_c, c_tensor, x)


def extremum(x, y, take_max, propagate_nan=True, fused=False):
    k = kind(x)
    if k == "b":
        return tf.logical_or(x, y) if take_max else tf.logical_and(x, y)
    if k == "f" and propagate_nan:
        for c, other, c_first in ((_scalar_constant(y), x, False), (_scalar_constant(x), y, True)):
            if c is not None and not np.isnan(c).any():
                return _extremum_with_constant(other, x if c_first else y, c, take_max, c_first,
                                               fused)
    if k == "f" and propagate_nan:
        # NumPy gives y on a tie (float16: x), which decides the sign of 0.0 against -0.0,
        # where TensorFlow's Maximum picks a sign that depends on the element's position.
        tie = x if x.dtype == tf.float16 else y
        if not fused:   # three ops: TensorFlow's Maximum/Minimum keep NaN (see above)
            return tf.where(tf.equal(x, y), tie, tf.maximum(x, y) if take_max else tf.minimum(x, y))
        # Under XLA NumPy's rule itself, which does not depend on how the XLA that runs
        # it (an exported graph's) treats NaN in max/min.
        if x.dtype == tf.float16:
            keep_x = tf.greater_equal(x, y) if take_max else tf.less_equal(x, y)
        else:
            keep_x = tf.greater(x, y) if take_max else tf.less(x, y)
        return tf.where(tf.logical_or(keep_x, is_nan(x)), x, y)
    if k == "c":
        pick_x = less(y, x, or_equal=True) if take_max else less(x, y, or_equal=True)
        out = tf.where(pick_x, x, y)
    else:
        out = tf.maximum(x, y) if take_max else tf.minimum(x, y)
    if k in "fc":
        nx, ny = is_nan(x), is_nan(y)
        if propagate_nan:
            out = tf.where(nx, x, tf.where(ny, y, out))
        else:
            # NumPy's fmax/fmin: x where y is NaN (so x when both are: a complex NaN keeps
            # its other part), else y where x is.
            out = tf.where(ny, x, tf.where(nx, y, out))
    return out


def to_bool(x):
    return x if kind(x) == "b" else tf.not_equal(x, tf.zeros_like(x))


def shift(x, s, left):
    bits = np_dtype(x).itemsize * 8
    s64 = tf.cast(s, tf.int64)
    in_range = (s64 >= 0) & (s64 < bits)
    safe = tf.where(in_range, s, tf.zeros_like(s))
    shifted = tf.bitwise.left_shift(x, safe) if left else tf.bitwise.right_shift(x, safe)
    if left or kind(x) == "u":
        overflow = tf.zeros_like(x)
    else:
        overflow = tf.where(x < 0, -tf.ones_like(x), tf.zeros_like(x))
    return tf.where(in_range, shifted, overflow)


def exp2_int(e, dtype):
    """2.0**e as ``dtype`` without overflow for large ``e`` (applied in two halves by ldexp)."""
    return tf.pow(tf.constant(2, dtype), tf.cast(e, dtype))


def ldexp(x, e):
    """``x * 2**e``, NumPy's ``ldexp``: exact powers of two applied in three parts, so none
    overflows where the product does not; exponents past the dtype's whole range (from its
    smallest subnormal to its largest number) clipped, as they give 0 or infinity alike;
    zeros, infinities and NaN kept as they are (not ``0 * inf``)."""
    info = np.finfo(np_dtype(x))
    bound = int(info.maxexp - (info.minexp - info.nmant) + 2)
    e = tf.cast(tf.clip_by_value(tf.cast(e, tf.int64), -bound, bound), tf.int32)
    first = tf.math.floordiv(e, 3)
    second = tf.math.floordiv(e - first, 2)
    out = x * exp2_int(first, x.dtype) * exp2_int(second, x.dtype) * \
        exp2_int(e - first - second, x.dtype)
    keep = tf.equal(x, 0) | tf.math.is_inf(x) | is_nan(x)
    return tf.where(keep, x, out)


def nextafter(x, y):
    """Step ``x`` one unit in the last place towards ``y`` (float16 on its bit pattern)."""
    if np_dtype(x) != np.float16:
        return tf.math.nextafter(x, y)
    bits = tf.bitcast(x, tf.int16)
    up = tf.not_equal(x < y, x < 0)
    stepped = tf.bitcast(tf.where(up, bits + 1, bits - 1), x.dtype)
    tiny = tf.bitcast(tf.ones_like(bits), x.dtype)
    out = tf.where(tf.equal(x, 0), tf.where(y > 0, tiny, -tiny), stepped)
    out = tf.where(tf.equal(x, y), y, out)
    return tf.where(is_nan(x) | is_nan(y), x + y, out)


def frexp(x):
    special = tf.equal(x, 0) | is_nan(x) | tf.math.is_inf(x)
    xs = tf.where(special, tf.ones_like(x), x)
    e = tf.cast(tf.math.floor(tf.math.log(tf.abs(tf.cast(xs, tf.float64))) / np.log(2.0)), tf.int32) + 1
    m = ldexp(xs, -e)
    too_big = tf.abs(m) >= 1
    m, e = tf.where(too_big, m / 2, m), tf.where(too_big, e + 1, e)
    too_small = tf.abs(m) < 0.5
    m, e = tf.where(too_small, m * 2, m), tf.where(too_small, e - 1, e)
    return tf.where(special, x, m), tf.where(special, tf.zeros_like(e), e)


_UNSIGNED_OF_WIDTH = {1: tf.uint8, 2: tf.uint16, 4: tf.uint32, 8: tf.uint64}


def unsigned_magnitude(x):
    """|x| in the unsigned type of x's width, where |INT_MIN| still fits (NumPy's gcd/lcm
    loops take absolute values the same way)."""
    if kind(x) == "u":
        return x
    return tf.cast(tf.where(x < 0, -x, x), _UNSIGNED_OF_WIDTH[np_dtype(x).itemsize])


def unsigned_gcd(a, b):
    """Euclid's algorithm on every element at once; at most ~93 rounds for 64-bit values."""
    def step(a, b):
        done = tf.equal(a, 0)
        divisor = tf.where(done, tf.ones_like(a), a)
        return tf.where(done, a, tf.math.floormod(b, divisor)), tf.where(done, b, a)

    shape = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
    a, b = tf.broadcast_to(a, shape), tf.broadcast_to(b, shape)   # a loop keeps its shapes
    _, b = tf.while_loop(lambda a, b: tf.reduce_any(tf.not_equal(a, 0)), step, (a, b))
    return b


def gcd(x, y):
    return tf.cast(unsigned_gcd(unsigned_magnitude(x), unsigned_magnitude(y)), x.dtype)


def lcm(x, y):
    a, b = unsigned_magnitude(x), unsigned_magnitude(y)
    shape = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
    a, b = tf.broadcast_to(a, shape), tf.broadcast_to(b, shape)
    g = unsigned_gcd(a, b)
    zero = tf.equal(g, 0)
    # a // gcd * b wraps modulo 2**bits exactly like NumPy's C loop.
    out = tf.where(zero, tf.zeros_like(a), tf.math.floordiv(a, tf.where(zero, tf.ones_like(g), g)) * b)
    return tf.cast(out, x.dtype)


def _half_spacing(x):
    """NumPy's ``npy_half_spacing``, on the bit pattern: always positive, unlike the
    float32/float64 loops."""
    h = tf.bitwise.bitwise_and(tf.cast(tf.bitcast(x, tf.int16), tf.int32), 0xFFFF)
    exp = tf.bitwise.bitwise_and(h, 0x7C00)
    negative_power_of_two = tf.not_equal(tf.bitwise.bitwise_and(h, 0x8000), 0) & \
        tf.equal(tf.bitwise.bitwise_and(h, 0x03FF), 0)

    def gap(exp_offset, shift_offset):
        shift = tf.maximum(tf.bitwise.right_shift(exp, 10) - shift_offset, 0)
        subnormal = tf.where(exp > 0x0400, tf.bitwise.left_shift(tf.ones_like(h), shift), tf.ones_like(h))
        return tf.where(exp > exp_offset, exp - exp_offset, subnormal)

    bits = tf.where(negative_power_of_two, gap(0x2C00, 2), gap(0x2800, 1))
    bits = tf.where(tf.equal(h, 0x7BFF), tf.fill(tf.shape(h), 0x7C00), bits)
    bits = tf.where(tf.equal(exp, 0x7C00), tf.fill(tf.shape(h), 0x7E00), bits)
    return tf.bitcast(tf.cast(bits, tf.int16), tf.float16)


def spacing(x):
    """Distance to the next representable value away from zero (``npy_spacing``)."""
    if np_dtype(x) == np.float16:
        return _half_spacing(x)
    inf = tf.constant(np.inf, x.dtype)
    out = nextafter(x, tf.where(x < 0, -inf, inf)) - x
    return tf.where(tf.math.is_inf(x), tf.constant(np.nan, x.dtype) + tf.zeros_like(x), out)


def hyperbolic(x, sine):
    """sinh or cosh of a float32/float64 ``x`` from ``exp``, within 2-3 ulps of NumPy's.

    XLA computes them as exp(x + log(0.5)) +- exp(-x + log(0.5)): the rounded sum
    carries an absolute error of one ulp of x into the exponent, hundreds of ulps of
    the result for large x (sinh(600.0) 496 ulps off in float64). Here e^|x| / 2 comes
    from exp(|x|) itself, or from exp(|x| / 2) squared where exp(|x|) overflows
    before sinh does; below |x| = 1 XLA's own sinh has no such error."""
    dtype = x.dtype.as_numpy_dtype
    big = tf.abs(x) > np.log(np.finfo(dtype).max) - 1
    a = tf.abs(x)
    e = tf.exp(tf.where(big, a * 0.5, a))
    half = tf.where(big, (e * 0.5) * e, e * 0.5)            # e^|x| / 2
    tail = tf.constant(0.25, x.dtype) / half                   # e^-|x| / 2
    if not sine:
        return half + tail
    return tf.where(a < 1, tf.sinh(x), copysign(half - tail, x))


def complex_cumprod(x, axis):
    """NumPy's running product of complex numbers, which starts from the first element
    and multiplies as its loop does. TensorFlow's starts from 1, and (1 + 0j) * (inf + 0j)
    is inf+nanj: where a part is infinite or NaN, the product runs element by element."""
    kernel = tf.math.cumprod(x, axis=axis)
    if x.shape[axis] == 0:
        return kernel
    perm = [axis] + [i for i in range(len(x.shape)) if i != axis]
    inverse = np.argsort(perm).tolist()

    def stepwise():
        xt = tf.transpose(x, perm)
        first = xt[0]
        rest = tf.scan(multiply_as_numpy, xt[1:], initializer=first)
        return tf.transpose(tf.concat([first[None], rest], 0), inverse)
    finite = tf.reduce_all(_all_finite(tf.math.real(x), tf.math.imag(x)))
    return tf.cond(finite, lambda: kernel, stepwise)
