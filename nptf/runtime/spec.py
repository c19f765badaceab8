"""``nptf.Spec``: an input's shape (``None`` for a dimension of any size) and dtype."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import SpecError

SPEC_SYNTAX = "NAME=DTYPE[DIM,...] with DIM an integer >= 0 or None, e.g. x=float32[None,3] or n=int64[]"


@dataclass(frozen=True)
class Spec:
    """Shape and dtype of one array argument; ``None`` dimensions take any size."""

    shape: tuple
    dtype: object = np.float64
    name: str | None = None

    def __post_init__(self):
        shape = (self.shape,) if isinstance(self.shape, int) else tuple(self.shape)
        for d in shape:
            if d is not None and (not isinstance(d, (int, np.integer)) or d < 0):
                raise SpecError(f"Spec dimensions must be integers >= 0 or None, got {shape}")
        try:
            dtype = np.dtype(self.dtype)
        except TypeError:
            raise SpecError(f"unknown dtype {self.dtype!r} in Spec") from None
        if dtype.kind not in "biufc":
            raise SpecError(f"Spec dtype must be numeric or bool, got {dtype}")
        object.__setattr__(self, "shape", tuple(None if d is None else int(d) for d in shape))
        object.__setattr__(self, "dtype", dtype)

    @classmethod
    def of(cls, value, name=None) -> "Spec":
        """The Spec of an example array (or an existing Spec)."""
        if isinstance(value, Spec):
            return value if name is None or value.name else Spec(value.shape, value.dtype, name)
        if isinstance(value, (np.random.Generator, np.random.RandomState)):
            raise SpecError(f"a {type(value).__name__} is not an example array: a SavedModel "
                            f"cannot call NumPy's generators. Draw the numbers with NumPy and "
                            f"give the exported function an input for them.")
        arr = np.asarray(value)
        return cls(arr.shape, arr.dtype, name)

    def matches(self, shape, dtype) -> bool:
        return np.dtype(dtype) == self.dtype and len(shape) == len(self.shape) and \
            all(s is None or s == d for s, d in zip(self.shape, shape))

    def __str__(self):
        dims = ",".join("None" if d is None else str(d) for d in self.shape)
        return f"{self.name + '=' if self.name else ''}{self.dtype.name}[{dims}]"


_SPEC_RE = re.compile(r"^\s*(?:([A-Za-z_]\w*)\s*=)?\s*([A-Za-z]\w*)\s*\[([^\]]*)\]\s*$")


def parse_spec(text: str) -> Spec:
    """``"x=float32[None,3]"`` -> ``Spec((None, 3), float32, "x")``."""
    m = _SPEC_RE.match(text)
    if not m:
        raise SpecError(f"cannot parse spec {text!r}; expected {SPEC_SYNTAX}")
    name, dtype, dims = m.groups()
    shape = []
    for d in filter(None, (p.strip() for p in dims.split(","))):
        if d in ("None", "?", "_"):
            shape.append(None)
        elif re.fullmatch(r"-?\d+", d):
            if int(d) < 0:
                raise SpecError(f"negative dimension {d} in spec {text!r}; expected {SPEC_SYNTAX}")
            shape.append(int(d))
        else:
            raise SpecError(f"bad dimension {d!r} in spec {text!r}; expected {SPEC_SYNTAX}")
    try:
        np_dtype = np.dtype(dtype)
    except TypeError:
        raise SpecError(f"unknown dtype {dtype!r} in spec {text!r}; expected {SPEC_SYNTAX}") from None
    return Spec(tuple(shape), np_dtype, name)
