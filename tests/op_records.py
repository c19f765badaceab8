"""Op records: one row per NumPy function, swept over dtypes x shapes against NumPy.

A shape entry may be a Python scalar instead of a shape: that argument is then
passed as that Python value (a weak scalar under NEP 50).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nptf.graph_ir.ops import ELEMENTWISE_UFUNCS

ALL_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]
REAL_DTYPES = [d for d in ALL_DTYPES if np.dtype(d).kind != "c"]
# For functions nptf composes of ops the ufunc records sweep over every dtype: one narrow
# and one wide signed and unsigned integer stand for the rest.
SAMPLED_DTYPES = [np.bool_, np.int8, np.int64, np.uint16, np.uint64, np.float16, np.float32,
                  np.float64, np.complex64, np.complex128]
NUMERIC = [d for d in ALL_DTYPES if d is not np.bool_]
FLOATS = [np.float16, np.float32, np.float64]
INEXACT = FLOATS + [np.complex64, np.complex128]
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0]


def make_array(dtype, shape, rng, kind="any"):
    dtype = np.dtype(dtype)
    if not isinstance(shape, tuple):
        return shape
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        lo, hi = {"any": (-5, 6), "small": (0, 5), "shift": (-2, 70)}.get(kind, (-5, 6))
        if dtype.kind == "u":
            lo = max(lo, 0) if kind != "shift" else lo
        return rng.integers(lo, hi, size=shape).astype(dtype)
    real = np.empty(0, dtype).real.dtype
    x = (rng.normal(0, 2, size=shape)).astype(real)
    if kind == "small":
        x = np.abs(x) % 4
    if kind == "special" and x.size >= 8 and dtype.kind == "f":
        x.flat[:len(SPECIALS)] = SPECIALS
    if dtype.kind == "c":
        y = rng.normal(0, 2, size=shape).astype(real)
        return (x + 1j * y).astype(dtype)
    return x.astype(dtype)


@dataclass
class OpRecord:
    name: str
    fn: object
    shapes: list
    dtypes: list = field(default_factory=lambda: ALL_DTYPES)
    kinds: tuple = ()
    rtol_scale: float = 1.0
    unsupported: tuple = ()   # dtypes nptf refuses with UnsupportedError (documented gaps)
    specials: bool = False    # put nan, inf, -inf, 0.0, -0.0 into float inputs

    def cases(self, rng):
        for dtype in self.dtypes:
            for shapes in self.shapes:
                kinds = self.kinds or (("special" if self.specials else "any"),) * len(shapes)
                yield dtype, [make_array(dtype, s, rng, k) for s, k in zip(shapes, kinds)]


UNARY_SHAPES = [((),), ((0,),), ((9,),), ((3, 4),)]
BINARY_SHAPES = [((), ()), ((9,), (9,)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((0, 4), (4,)),
                 ((3, 4), ()), ((9,), 2.5), ((9,), 3), (-1.5, (3, 4))]

_KINDS = {"power": ("any", "small"), "float_power": ("any", "small"), "ldexp": ("any", "small"),
          "left_shift": ("any", "shift"), "right_shift": ("any", "shift")}
_RTOL = {"power": 50, "float_power": 50, "cbrt": 10, "logaddexp2": 10, "arccosh": 50,
         "arcsinh": 50, "arctanh": 50, "exp2": 10, "tan": 10, "sinh": 10, "cosh": 10,
         "arctan2": 10, "log10": 10, "log2": 10, "hypot": 10, "logaddexp": 10, "expm1": 10}


def _ufunc_record(name):
    uf = getattr(np, name)
    shapes = UNARY_SHAPES if uf.nin == 1 else BINARY_SHAPES
    kinds = _KINDS.get(name, ())
    return OpRecord(name, lambda *a, _uf=uf: _uf(*a), shapes, kinds=kinds,
                    rtol_scale=_RTOL.get(name, 1), specials=True)


UFUNC_RECORDS = [_ufunc_record(n) for n in ELEMENTWISE_UFUNCS]

R = OpRecord
S2 = [((3, 4),)]
S3 = [((2, 3, 4),)]
RED_SHAPES = [((),), ((7,),), ((3, 4),), ((2, 3, 4),), ((0, 3),)]

OTHER_RECORDS = [
    # operators
    R("op_add", lambda x, y: x + y, BINARY_SHAPES),
    R("op_radd_scalar", lambda x: 2 + x, UNARY_SHAPES),
    R("op_rsub_float", lambda x: 1.5 - x, UNARY_SHAPES),
    R("op_truediv", lambda x, y: x / y, BINARY_SHAPES),
    R("op_floordiv", lambda x, y: x // y, BINARY_SHAPES),
    R("op_mod", lambda x, y: x % y, BINARY_SHAPES),
    R("op_pow2", lambda x: x ** 2, UNARY_SHAPES),
    R("op_neg", lambda x: -x, UNARY_SHAPES),
    R("op_abs", lambda x: abs(x), UNARY_SHAPES),
    R("op_invert", lambda x: ~x, UNARY_SHAPES),
    R("op_compare", lambda x, y: (x < y, x <= y, x == y, x != y, x > y, x >= y), BINARY_SHAPES),
    R("op_bitwise", lambda x, y: (x & y, x | y, x ^ y), BINARY_SHAPES),
    R("op_divmod", lambda x, y: divmod(x, y), BINARY_SHAPES[:4]),
    R("op_iadd", lambda x, y: _inplace_add(x, y), [((3, 4), (4,)), ((3, 4), 2.0), ((5,), 3)]),
    # reductions
    R("sum", lambda x: (np.sum(x), np.sum(x, axis=0), np.sum(x, axis=-1, keepdims=True)), RED_SHAPES[1:]),
    R("sum_axes", lambda x: (x.sum((0, 2)), x.sum(axis=(1,), dtype=np.float32)), [((2, 3, 4),)]),
    R("sum_0d", lambda x: (np.sum(x), x.sum(keepdims=True)), [((),)]),
    R("prod", lambda x: (np.prod(x), np.prod(x, axis=1)), [((3, 4),), ((0, 3),)], rtol_scale=10),
    R("mean", lambda x: (np.mean(x), x.mean(axis=0), np.mean(x, axis=(0, 1), keepdims=True)),
      [((3, 4),), ((2, 3, 4),)], rtol_scale=10),
    R("var_std", lambda x: (np.var(x), x.std(axis=0), np.var(x, axis=1, ddof=1)),
      [((3, 4),), ((4, 5),)], rtol_scale=100),
    R("max_min", lambda x: (np.max(x), x.min(axis=0), np.amax(x, axis=-1, keepdims=True),
                            np.min(x, axis=(0, 1))), [((3, 4),), ((2, 3, 4),), ((5, 4),)]),
    R("max_empty", lambda x: np.max(x), [((0, 3),)], dtypes=REAL_DTYPES),
    R("ptp", lambda x: np.ptp(x, axis=0), [((3, 4),)], dtypes=[np.int64, np.float32, np.float64]),
    R("argmax_argmin", lambda x: (np.argmax(x), x.argmin(axis=0), np.argmax(x, axis=-1, keepdims=True)),
      [((3, 4),), ((6, 5),)]),
    R("all_any", lambda x: (np.all(x), np.any(x, axis=0), x.all(axis=-1, keepdims=True)),
      [((3, 4),), ((0, 2),), ((),)]),
    R("cumsum_cumprod", lambda x: (np.cumsum(x), x.cumsum(axis=0), np.cumprod(x, axis=-1)),
      [((3, 4),), ((7,),)], rtol_scale=10),
    R("ufunc_reduce", lambda x: (np.add.reduce(x), np.maximum.reduce(x, axis=1), np.multiply.accumulate(x)),
      [((3, 4),)], dtypes=[np.int32, np.float32, np.float64]),
    # shape manipulation
    R("reshape", lambda x: (x.reshape(4, 3), np.reshape(x, (-1,)), x.reshape((2, -1, 3)), x.ravel(),
                            x.flatten()), S2),
    R("transpose", lambda x: (x.T, np.transpose(x, (1, 2, 0)), x.transpose(2, 0, 1),
                              np.swapaxes(x, 0, 2), np.moveaxis(x, 0, -1)), S3),
    R("expand_squeeze", lambda x: (np.expand_dims(x, 0), np.expand_dims(x, (0, -1)),
                                   np.squeeze(x[None, :, None]), x[:, None].squeeze(1)), S2),
    R("broadcast_to", lambda x: (np.broadcast_to(x, (2, 3, 4)), np.broadcast_arrays(x, x[:1])[1]), S2),
    R("concatenate", lambda x, y: (np.concatenate([x, y]), np.concatenate((x, y), axis=1),
                                   np.concatenate([x, y], axis=None)), [((2, 3), (2, 3))]),
    R("stack", lambda x, y: (np.stack([x, y]), np.stack([x, y], axis=-1), np.vstack([x, y]),
                             np.hstack([x, y])), [((2, 3), (2, 3)), ((4,), (4,))]),
    R("concat_mixed", lambda x: np.concatenate([x, x.astype(np.float32)]), [((3,),)]),
    R("split", lambda x: (np.split(x, 2), np.split(x, [1, 3], axis=1), np.array_split(x, 3, axis=1)),
      [((4, 5),), ((3, 5),)]),   # 3 rows do not split in 2: NumPy's ValueError
    R("flip", lambda x: (np.flip(x), np.flip(x, 0), np.fliplr(x), np.flipud(x)), S2),
    R("tile_repeat", lambda x: (np.tile(x, 2), np.tile(x, (2, 1, 1)), np.repeat(x, 2),
                                np.repeat(x, [1, 0, 2], axis=0), x.repeat(3, axis=1)), [((3, 2),)]),
    # indexing (basic)
    R("getitem", lambda x: (x[1], x[-1, 2], x[1:3], x[::-1], x[::2, ::-2], x[..., 1], x[None],
                            x[:, np.newaxis, 1:3], x[-2:, ..., None], x[5:1], x[1:-1, 0]), [((4, 5),)]),
    R("getitem_guide", lambda x: x[1, np.newaxis, 1:3, ...], [((2, 3, 4),)]),
    # dtype
    R("astype", lambda x: (x.astype(np.float32), x.astype(np.int8), x.astype(bool),
                           x.astype(np.uint16), np.real(x), np.imag(x), x.real, x.conj()),
      [((9,),)], dtypes=[d for d in ALL_DTYPES]),
    # linear algebra
    R("matmul", lambda a, b: (a @ b, np.matmul(a, b), np.dot(a, b)),
      [((3, 4), (4, 2)), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((2, 3, 4), (4, 5)),
       ((2, 1, 3, 4), (3, 4, 2)), ((0, 4), (4, 3))], rtol_scale=10),
    R("dot_nd", lambda a, b: np.dot(a, b), [((2, 3, 4), (5, 4, 2)), ((3,), ())], rtol_scale=10),
    R("tensordot", lambda a, b: (np.tensordot(a, b), np.tensordot(a, b, axes=([0], [1])),
                                 np.tensordot(a, b, 0)), [((3, 4), (3, 4))], rtol_scale=10),
    R("einsum", lambda a, b: (np.einsum("ij,jk->ik", a, b.T), np.einsum("ij,ij", a, b),
                              np.einsum("...j,...j->...", a, b), np.einsum("ij->ji", a),
                              np.einsum("ii->i", a[:3, :3])), [((3, 4), (3, 4))], rtol_scale=10),
    R("outer_inner", lambda a, b: (np.outer(a, b), np.inner(a, b), np.vdot(a, b)),
      [((4,), (4,))], rtol_scale=10),
    R("trace", lambda a: (np.trace(a), np.trace(a, 1)), [((4, 4),), ((3, 4),)]),
    # elementwise helpers
    R("where", lambda c, x, y: (np.where(c > 0, x, y), np.where(c > 0, x, 0.5)),
      [((3, 4), (3, 4), (4,)), ((3, 1), (1, 4), ())]),
    R("clip", lambda x: (np.clip(x, -1, 2), x.clip(0), np.clip(x, None, 1.5)), [((3, 4),)],
      dtypes=REAL_DTYPES),
    R("round", lambda x: (np.round(x), np.round(x, 2), np.around(x, -1), x.round(1)), [((9,),)],
      dtypes=REAL_DTYPES),
]


def _inplace_add(x, y):
    x = x.copy()
    x += y
    return x


CREATION_RECORDS = [
    R("zeros_ones", lambda x: (np.zeros(3), np.ones((2, 3), dtype=np.int32), np.empty(2, bool) * 0,
                               np.zeros_like(x), np.ones_like(x, dtype=np.float32),
                               np.full((2, 2), 7), np.full_like(x, 2.5), np.full(3, x[0])), [((4,),)]),
    R("arange", lambda x: (np.arange(5), np.arange(1, 10, 3), np.arange(0.5, 3.0, 0.25),
                           np.arange(5, 0, -2), np.arange(3, dtype=np.float32), np.arange(4) + x),
      [((4,),)]),
    R("linspace", lambda x: (np.linspace(0, 1, 5), np.linspace(-2, 3, 7, endpoint=False),
                             np.linspace(0, 1, 1), np.linspace(0, 10, 4, dtype=np.int32),
                             np.linspace(0, 1, 5, retstep=True), np.linspace(-3.5, 1, 5, dtype=int),
                             np.linspace(x - 4, x, 3, endpoint=False, dtype=np.int16)),
      [((1,),)], dtypes=[np.float64]),
    R("eye", lambda x: (np.eye(3), np.eye(2, 4, 1, dtype=np.int32), np.identity(3, dtype=bool),
                        np.eye(3, k=-1)), [((1,),)], dtypes=[np.float64]),
    R("array_literals", lambda x: (np.array([1, 2, 3]), np.asarray([[1.0, 2.0]]),
                                   np.array([x[0], x[1]]), np.array(x), np.array([1, 2], ndmin=2)),
      [((3,),)]),
]

RECORDS = UFUNC_RECORDS + OTHER_RECORDS + CREATION_RECORDS
from op_records_breadth import BREADTH_RECORDS; RECORDS += BREADTH_RECORDS  # noqa: E402,E702
from op_records_sets import SETS_RECORDS; RECORDS += SETS_RECORDS  # noqa: E402,E702
from op_records_extra import EXTRA_RECORDS; RECORDS += EXTRA_RECORDS  # noqa: E402,E702
