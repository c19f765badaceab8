"""Python operators on Python numbers follow Python where Python and NumPy differ.

A Python float or complex argument is traced as a weak scalar, and an operator
whose operands are all Python numbers gives a Python number (``x / y``, ``-x``,
``(x < y) + 1``). The graph computes it with NumPy's loops, which give Python's
values except where Python

* takes ``bool`` as an ``int`` in arithmetic (``True + True == 2``,
  ``~True == -2``, ``-(x < y) == -1``), where NumPy keeps or refuses bool;
* refuses the operand types (``x < 1j``, ``1j // x``): ``TypeError`` when tracing;
* raises on the values, where NumPy returns inf or NaN: division and modulo by
  zero, ``0.0 ** -1`` (``ZeroDivisionError``), a negative shift count
  (``ValueError``), a float ``**`` past the float range (``OverflowError``);
* returns what the graph cannot: a complex for a negative float to a fractional
  power, a float for an int to a negative power, an int past int64 (Python's
  ints have no bounds), a complex power whose result is not finite (Python
  raises or computes it differently). These fail as ``OutsideTheGraphError``:
  with ``fallback="numpy"`` the call runs as plain Python.

Python's errors and messages are Python's own, asked of Python on sample operands.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from ..errors import unsupported, user_location, with_location
from ..graph_ir.ir import Literal
from ..graph_ir.types import weak_type_of
from .tracer import Tracer, emit, python_type_of

OPERATORS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
    "divmod": divmod, "power": operator.pow,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
    "left_shift": operator.lshift, "right_shift": operator.rshift,
    "less": operator.lt, "less_equal": operator.le, "greater": operator.gt,
    "greater_equal": operator.ge, "equal": operator.eq, "not_equal": operator.ne,
    "negative": operator.neg, "positive": operator.pos, "absolute": abs,
    "invert": operator.invert, "conjugate": lambda z: z.conjugate(),
}

# Operators under which Python takes a bool as the int 0 or 1 (&, |, ^ and the
# comparisons keep bools as they are, in Python as in NumPy).
_ARITHMETIC = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "divmod",
               "power", "left_shift", "right_shift", "negative", "positive", "absolute",
               "invert", "conjugate"}
_DIVISIONS = {"divide", "floor_divide", "remainder", "divmod"}
# An int result at least this large in float64 may have left int64 (float64 rounds by
# at most 2**-53 relatively, so every true overflow lands above it).
_INT_SUSPECT = float(2 ** 62)


def all_python_numbers(atoms):
    """Whether every operand is a Python number: a weak value or a Python bool literal."""
    return all(a.type.weak or (isinstance(a, Literal) and isinstance(a.value, bool))
               for a in atoms)


def before(name, atoms):
    """The operands to compute ``name`` with as Python would, after Python's checks.

    Raises Python's ``TypeError`` for operand types Python refuses; bools become
    ints in arithmetic; division and shifts get run-time checks on their operands.
    """
    fn = OPERATORS.get(name)
    if fn is None:
        return atoms
    _python_says(fn, *[_python_type(a)(1) for a in atoms])    # types decide Python's TypeErrors
    if name in _ARITHMETIC:
        atoms = [as_int(a) if a.type.dtype.kind == "b" else a for a in atoms]
    if name == "power" and all(a.type.dtype.kind == "i" for a in atoms) and \
            _known(atoms[1], lambda v: v < 0):
        # An int to a constant negative power: a float power in Python.
        atoms = [_as_float(a) for a in atoms]
    if name in _DIVISIONS and not _known(atoms[1], lambda v: v != 0):
        x, y = atoms
        zero = _python_type(y)(0)
        atoms = [x, _guard(y, np.not_equal(Tracer(y), zero), "ZeroDivisionError",
                           _python_error(fn, _python_type(x)(1), zero))]
    if name in ("left_shift", "right_shift") and not _known(atoms[1], lambda v: v >= 0):
        x, y = atoms
        atoms = [x, _guard(y, np.greater_equal(Tracer(y), 0), "ValueError",
                           _python_error(fn, 1, -1))]
    return atoms


def _known(atom, holds):
    """Whether ``atom`` is a constant for which ``holds`` is true."""
    return isinstance(atom, Literal) and bool(holds(atom.value))


def after(name, atoms, out):
    """``out`` with run-time checks where Python raises or returns what the graph cannot."""
    if name not in OPERATORS:
        return out
    kind = (out[0] if isinstance(out, tuple) else out).dtype.kind
    if name == "power":
        return _power(atoms, out)
    if kind == "i" and name in ("add", "subtract", "multiply", "negative", "absolute",
                                "left_shift"):
        return _int_range(name, atoms, out)
    if kind == "i" and name in ("floor_divide", "divmod"):
        # The one int64 quotient past int64: -2**63 // -1 (Python: 2**63).
        x, y = (Tracer(a) for a in atoms)
        fits = np.not_equal(x, np.iinfo(np.int64).min) | np.not_equal(y, -1)
        why = "Python's int quotient -2**63 // -1 passes int64"
        fix = "compute in floats ((x * 1.0) // y) or with np.int64 for NumPy's wrapping"
        if name == "divmod":
            return (outside_the_graph(out[0], fits, why, fix), out[1])
        return outside_the_graph(out, fits, why, fix)
    return out


# ------------------------------------------------------------------ power
def _power(atoms, out):
    x, y = (Tracer(a) for a in atoms)
    kind = out.dtype.kind
    # An exponent written as a number (x ** 2, dt ** 0.5) decides most checks when tracing.
    exponent = atoms[1].value if isinstance(atoms[1], Literal) and kind in "if" else None
    if kind == "i":
        if exponent is None or exponent < 0:
            out = outside_the_graph(out, np.greater_equal(y, 0),
                           "a Python int to a negative power is a float in Python",
                           "write (x * 1.0) ** y for a float result")
        return _int_range("power", atoms, out)
    if kind == "f":
        known = exponent is not None
        finite_y = np.isfinite(y) if not known else bool(np.isfinite(exponent))
        if not known or (exponent < 0 and finite_y):
            out = _guard(out, ~(np.equal(x, 0) & np.less(y, 0) & finite_y), "ZeroDivisionError",
                         _python_error(operator.pow, _python_type(atoms[0])(0),
                                       _python_type(atoms[1])(-1)))
        if not known or (finite_y and exponent != np.floor(exponent)):
            real = ~(np.less(x, 0) & np.isfinite(x) & finite_y & np.not_equal(y, np.floor(y)))
            out = outside_the_graph(out, real, "a negative Python float to a fractional power is complex "
                                      "in Python", "write complex(x) ** y for the complex "
                                      "result, or np.float64(x) ** y for NumPy's NaN")
        if known and not finite_y:
            return out      # inf and nan exponents raise nothing in Python
        finite = np.isfinite(out) | ~np.isfinite(x)
        if not known:
            finite = finite | ~finite_y
        return _guard(out, finite, "OverflowError", _python_error(operator.pow, 10.0, 400.0))
    # Complex: 0 to a negative or complex power raises; results that are not finite
    # are computed (or refused) by Python's own algorithm.
    zero_base = np.equal(x, 0) & np.not_equal(y, 0) & \
        (np.less(np.real(y), 0) | np.not_equal(np.imag(y), 0))
    out = _guard(out, ~zero_base, "ZeroDivisionError",
                 _python_error(operator.pow, 0j, -1j))
    return outside_the_graph(out, np.isfinite(out) | zero_base,
                    "a Python complex power that is not finite is computed (or refused with "
                    "OverflowError) by Python's own algorithm",
                    "write np.complex128(x) ** y for NumPy's result")


# ------------------------------------------------------------------ helpers
def _int_range(name, atoms, out):
    """``out`` failing as outside the graph where Python's unbounded int passes int64."""
    floats = [Tracer(_as_float(a)) for a in atoms]
    if name == "left_shift":
        approx = np.multiply(floats[0], np.power(2.0, floats[1]))
    else:
        approx = getattr(np, name)(*floats)
    fits = np.less(np.absolute(approx), _INT_SUSPECT)
    return outside_the_graph(out, fits, f"this Python int {name.replace('_', ' ')} may pass int64, "
                               f"and Python's ints have no bounds",
                    "compute in floats (x * 1.0) or with np.int64 for NumPy's wrapping")


def _python_type(atom):
    return python_type_of(atom.type.dtype)


def as_int(atom):
    """A Python number (bool, int) as the Python int Python computes with."""
    if isinstance(atom, Literal):
        return Literal(int(atom.value), weak_type_of(int(atom.value)))
    return emit("convert", [Tracer(atom)], {"dtype": np.dtype(np.int64), "weak": True},
                scalar=True).atom


def _as_float(atom):
    if isinstance(atom, Literal):
        return Literal(float(atom.value), weak_type_of(float(atom.value)))
    return emit("convert", [Tracer(atom)], {"dtype": np.dtype(np.float64)}, scalar=True).atom


def _guard(value, ok, error, message):
    """``value`` passed through a run-time check raising ``error`` where ``ok`` is false."""
    atom = value.atom if isinstance(value, Tracer) else value
    params = {"message": f"{message}\n  at {user_location()}", "error": error}
    if atom.type.weak:
        params["weak"] = True
    out = emit("check", [Tracer(atom), ok], params, scalar=True)
    return out.atom if not isinstance(value, Tracer) else out


def outside_the_graph(value, ok, why, fix):
    """``value`` failing as outside the graph where ``ok`` is false: Python's result there
    is of another type or range than the graph's."""
    return _guard(value, ok, "OutsideTheGraph",
                  f"{why}, which the compiled graph (of fixed types) cannot return. Fix: {fix}, "
                  f"or let the call fall back (fallback=\"numpy\")")


def _python_error(fn, *operands):
    """The message Python gives for ``fn(*operands)``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*operands)
    except Exception as e:  # noqa: BLE001
        return str(e)
    raise AssertionError(f"{fn}{operands} was expected to raise")


def _python_says(fn, *operands):
    """Run the Python operator on samples: Python's TypeError at the user's line."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*operands)
    except TypeError as e:
        raise with_location(e, user_location()) from None
    except (ArithmeticError, ValueError):
        pass


_INT64_BOUND = float(2 ** 63)


def from_element(fn, x):
    """``fn(x)`` (``float``, ``int`` or ``bool``) of a 0-d traced value of kind b/i/u/f: a
    traced Python number (weak), which Python's operators, conditions and indices take as
    that number. ``int`` truncates toward zero and raises Python's ValueError for NaN and
    OverflowError for infinities after the run; an int past int64, which only Python
    holds, fails as outside the graph (the call runs with NumPy)."""
    if fn is bool or fn is float:
        dtype = np.dtype(np.bool_ if fn is bool else np.float64)
        return emit("convert", [x], {"dtype": dtype, "weak": True}, scalar=True)
    if x.dtype.kind == "f":
        x = _guard(x, ~np.isnan(x), "ValueError", "cannot convert float NaN to integer")
        x = _guard(x, ~np.isinf(x), "OverflowError", "cannot convert float infinity to integer")
        x = outside_the_graph(np.trunc(x), np.abs(np.trunc(x)) < _INT64_BOUND,
                     "int() of this value is past int64, and Python's ints have no bounds",
                     "keep it a float")
    elif x.dtype == np.uint64:
        x = outside_the_graph(x, x <= np.iinfo(np.int64).max,
                     "int() of this value is past int64, and Python's ints have no bounds",
                     "keep it a NumPy integer")
    return Tracer(as_int(x.atom), is_scalar=True)

# ------------------------------------------------------------------ round
# The largest power of ten a float64 holds exactly: the scale of an exact rounding.
_EXACT_TENS = 22
# Python's own bounds on ``ndigits`` (Objects/floatobject.c): past them a float is
# itself (more digits than it has) or a signed zero.
_NDIGITS_MAX, _NDIGITS_MIN = 323, -308


def rounded(x, ndigits):
    """Python's ``round(x, ndigits)`` of a traced Python number ``x`` (weak), ``ndigits``
    a Python int: an int of an int (half to even, exactly), a float of a float.

    Python rounds a float's exact decimal value to ``ndigits`` places (half to even) and
    takes the float nearest to that: 2.675 (below 2.675 in binary) gives 2.67, where
    NumPy's scale-and-round gives 2.68. The graph computes it exactly where the scaled
    value is below 2**52 (the product's rounding error is kept, by Dekker's splitting);
    beyond that a float that is already a multiple of ``10**-ndigits`` is itself, and
    what remains fails as outside the graph."""
    if x.dtype.kind == "b":
        x = Tracer(as_int(x.atom), is_scalar=True)
    if x.dtype.kind in "iu":
        return x if ndigits >= 0 else _int_rounded(x, -ndigits)
    if ndigits > _NDIGITS_MAX:
        return x
    if ndigits < _NDIGITS_MIN:       # a signed zero, but NaN and infinities stay
        return emit("where", [np.isfinite(x), x * 0.0, x], scalar=True)
    if abs(ndigits) > _EXACT_TENS:
        raise unsupported(f"round() of a Python float to {ndigits} decimals",
                          fix=f"round to at most {_EXACT_TENS} decimals either way, or let the "
                              f"call run with NumPy (fallback='numpy', the default)")
    v = emit("convert", [x], {"dtype": np.dtype(np.float64)}, scalar=True)
    scale = 10.0 ** abs(ndigits)
    if ndigits >= 0:
        p = v * scale
        error = _product_error(v, scale, p)     # p + error == v * scale exactly
        # v * 2**ndigits an integer: v has no more than ndigits decimals.
        itself = np.equal(np.floor(v * 2.0 ** ndigits), v * 2.0 ** ndigits)
    else:
        p = v / scale
        # v / scale == p + remainder / scale exactly, the remainder v - p * scale exact.
        error = (v - p * scale) - _product_error(p, scale, p * scale)
        # Past 2**55 * scale a float's spacing is above twice the scale: its nearest
        # multiple of the scale rounds back to it.
        itself = np.greater_equal(np.abs(v), 2.0 ** 55 * scale)
    nearest = np.rint(p)
    off = p - nearest                       # exact: p's distance to its nearest integer
    # Only a tie of p (off = +-1/2) can move: away from `nearest` where the exact value
    # lies beyond p.
    q = nearest + np.where(np.equal(np.abs(off), 0.5) & np.greater(off * error, 0.0),
                           2.0 * off, 0.0)
    out = np.copysign(np.abs(q) / scale if ndigits >= 0 else np.abs(q) * scale, v)
    itself = itself | ~np.isfinite(v) | np.equal(v, 0.0)
    out = np.where(itself, v, out)
    out = outside_the_graph(out, itself | np.less(np.abs(p), 2.0 ** 52),
                   f"round() of a Python float to {ndigits} decimals whose scaled value passes "
                   f"2**52, where float64 no longer holds the rounding exactly",
                   "round a NumPy value (np.round(x, n)) for NumPy's result")
    return emit("convert", [out], {"dtype": np.dtype(np.float64), "weak": True}, scalar=True)


def _split(a):
    """``a`` (float64) as high + low halves of 26 bits each (Dekker)."""
    if isinstance(a, float):
        c = 134217729.0 * a
        high = c - (c - a)
        return high, a - high
    c = a * 134217729.0
    high = c - (c - a)
    return high, a - high


def _product_error(a, b, p):
    """The rounding error of ``p = a * b`` in float64: ``a * b - p``, exactly."""
    ah, al = _split(a)
    bh, bl = _split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _int_rounded(x, digits):
    """Python's ``round(x, -digits)`` of a Python int: the multiple of ``10**digits``
    nearest to it, a tie to the even multiple."""
    if digits > 19:             # 10**20 is past int64: every int64 rounds to 0
        return x * 0
    if digits == 19:
        # 10**19 is past int64 too: 0 up to the tie at 5 * 10**18, 10**19 beyond.
        return outside_the_graph(x * 0, np.less_equal(np.abs(x), 5 * 10 ** 18),
                        "round() of this Python int is past int64, and Python's ints have "
                        "no bounds", "round a NumPy value (np.round(x, n))")
    m = 10 ** digits
    q = x // m                  # floor: the remainder is in [0, m)
    r = x - q * m
    # Python's operators on Python numbers: the result stays a Python int, and its
    # product is checked against int64.
    up = (2 * r > m) | ((2 * r == m) & (q % 2 == 1))
    return (q + up) * m
