"""Value types of the IR: shape, dtype and NEP 50 "weak" flag.

Every dtype rule is asked of NumPy itself (``np.result_type``,
``ufunc.resolve_dtypes``, tiny sample computations), never copied into a table.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Python scalar types stand for weak operands when NumPy resolves dtypes.
_WEAK_PYTYPE = {"i": int, "u": int, "f": float, "c": complex}


@dataclass(frozen=True)
class ArrayType:
    """Shape (ints, ``None`` for a dimension only known at run time), dtype, weakness.

    ``weak`` marks values that are Python scalars in the user's program: under
    NEP 50 they adopt the dtype of the array they meet (``f32 * 2.0 -> f32``).
    """

    shape: tuple
    dtype: np.dtype
    weak: bool = False

    def __post_init__(self):
        object.__setattr__(self, "dtype", np.dtype(self.dtype))
        object.__setattr__(self, "shape", tuple(None if d is None else int(d) for d in self.shape))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            if d is None:
                return None
            n *= d
        return n

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)

    def strong(self) -> "ArrayType":
        return ArrayType(self.shape, self.dtype, False)

    def with_dtype(self, dtype) -> "ArrayType":
        return ArrayType(self.shape, dtype, False)

    def with_shape(self, shape) -> "ArrayType":
        return ArrayType(shape, self.dtype, self.weak)

    def __str__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{short_dtype(self.dtype)}{'~' if self.weak else ''}[{dims}]"


_SHORT = {"bool": "bool", "float16": "f16", "float32": "f32", "float64": "f64",
          "complex64": "c64", "complex128": "c128"}


def short_dtype(dtype) -> str:
    dtype = np.dtype(dtype)
    if dtype.name in _SHORT:
        return _SHORT[dtype.name]
    return dtype.name.replace("uint", "u").replace("int", "i")


def numpy_operand(t: ArrayType):
    """What NumPy's dtype resolution should see for a value of type ``t``."""
    return _WEAK_PYTYPE[t.dtype.kind] if t.weak and t.dtype.kind in _WEAK_PYTYPE else t.dtype


def weak_type_of(value) -> ArrayType:
    """The type of a Python scalar literal (bool stays strong, as in NumPy)."""
    if isinstance(value, bool):
        return ArrayType((), np.bool_)
    if isinstance(value, int):
        return ArrayType((), np.int64, weak=True)
    if isinstance(value, float):
        return ArrayType((), np.float64, weak=True)
    if isinstance(value, complex):
        return ArrayType((), np.complex128, weak=True)
    raise TypeError(f"not a Python scalar: {value!r}")


def sample(t: ArrayType, value=None):
    """A stand-in NumPy operand for type ``t`` (0-d), for asking NumPy about dtypes."""
    if t.weak and t.dtype.kind in _WEAK_PYTYPE:
        return _WEAK_PYTYPE[t.dtype.kind](0 if value is None else value)
    return np.zeros((), t.dtype)


def broadcast_shapes(*shapes):
    """NumPy's broadcasting, extended to unknown (``None``) dimensions."""
    if all(d is not None for s in shapes for d in s):
        return tuple(np.broadcast_shapes(*shapes))
    ndim = max(len(s) for s in shapes)
    out = []
    for axis in range(ndim):
        dims = {s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0}
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            # Unknown dimensions stand in as 1, so NumPy reports the real conflict.
            np.broadcast_shapes(*[tuple(1 if d is None else d for d in s) for s in shapes])
        if known:
            out.append(known.pop())
        elif None in dims:
            out.append(None)
        else:
            out.append(1)
    return tuple(out)
