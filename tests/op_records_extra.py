"""Op records for the smaller NumPy functions: append/delete/insert, splits, windows,
choose and the mutating put_along_axis/fill_diagonal, np.linalg aliases, shape and
dtype queries, cumulative_*, fix/i0/sinc/unwrap and friends, and polynomials.

Each record mixes shapes NumPy accepts with shapes it rejects, so the error
checks see NumPy's exceptions for these functions too.
"""
from __future__ import annotations

import numpy as np

from op_records import ALL_DTYPES, NUMERIC, REAL_DTYPES, SAMPLED_DTYPES, OpRecord as R

COMPLEX = (np.complex64, np.complex128)
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
swv = np.lib.stride_tricks.sliding_window_view
P = np.polynomial.polynomial


def _spd(a):
    """A well-conditioned Hermitian positive definite matrix built from ``a``."""
    return a @ np.conj(a.T) + 4 * np.eye(a.shape[-1], dtype=a.dtype)


def _put_along(x):
    y = x.copy()
    np.put_along_axis(y, np.array([[0], [2], [1]]), x[:, :1] * 2, axis=1)
    np.put_along_axis(y, np.array([[1, 0, 2, 2]]), x[:1], axis=0)
    z = x.copy()
    np.put_along_axis(z, np.array([0, -1, 5, 5]), x[0], axis=None)
    return y, z


def _put_along_traced(x, i):
    y = x.copy()
    np.put_along_axis(y, i % 4, x, axis=1)
    z = x.copy()
    np.put_along_axis(z, (i % 3)[:1], i[:1], axis=0)
    w = x.copy()
    np.put_along_axis(w, i[0] % 12, 7, axis=None)
    return y, z, w


def _fill_diagonal(x):
    y = x.copy()
    np.fill_diagonal(y, 5)
    z = x.copy()
    np.fill_diagonal(z, x.ravel()[:2], wrap=True)
    w = x.copy()
    np.fill_diagonal(w, x.ravel()[:3])
    return y, z, w


def _partition_method(x):
    y = x.copy()
    y.partition(2)
    return y[..., 2], np.sort(x)[..., 2]


MANIP = [
    R("append", lambda x, y: (np.append(x, y), np.append(x, y, axis=0), np.append(x[0], 7),
                              np.append(x, x[:1], axis=0)),
      [((3, 4), (2, 4)), ((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 4), (2, 5))]),
    R("append_0d", lambda x, y: np.append(x, y), [((), ()), ((0,), ())]),
    R("delete", lambda x: (np.delete(x, 1), np.delete(x, [0, 2], axis=1), np.delete(x, slice(None, None, 2), 0),
                           np.delete(x, -1, axis=-1), np.delete(x, np.array([True, False, True]), 0),
                           np.delete(x, [], axis=1), np.delete(x, 2, axis=0)),
      [((3, 4),), ((3, 5),), ((2, 4),), ((4, 4),)]),
    R("insert", lambda x, v: (np.insert(x, 1, 9), np.insert(x, 1, v, axis=0), np.insert(x, 1, v[:3], axis=1),
                              np.insert(x, [1], v[:3, None], axis=1), np.insert(x, [0, 2, 2, -1], 7.5, axis=1),
                              np.insert(x, 3, v), np.insert(x, slice(1, 3), v[0], axis=0),
                              np.insert(x, np.array([True, False, True]), 0, axis=0), np.insert(x, [], v, axis=0),
                              np.insert(x, 3, v, axis=0), np.insert(x, -4, v[:2])),
      [((3, 4), (4,)), ((2, 4), (4,)), ((3, 4), (5,))]),
    R("resize", lambda x: (np.resize(x, (2, 5)), np.resize(x, 3), np.resize(x, (0,)), np.resize(x, (2, 2, 2)),
                           np.resize(x[..., :0], (2, 2))), [((3, 4),), ((5,),)]),
    R("resize_errors", lambda x: np.resize(x, (-1, 2)), [((3, 4),)], dtypes=[np.float64]),
    R("hsplit_vsplit", lambda x: (np.hsplit(x, 2), np.hsplit(x, [1, 3]), np.vsplit(x, 2), np.vsplit(x, [1, -1, 9])),
      [((4, 6),), ((3, 5),), ((6,),), ((4, 6, 2),)]),
    R("hsplit_1d", lambda x: (np.hsplit(x, 3), np.hsplit(x, [2])), [((6,),), ((),), ((5,),)]),
    R("dsplit", lambda x: (np.dsplit(x, 2), np.dsplit(x, [1])), [((2, 3, 4),), ((2, 3),), ((2, 3, 5),)]),
    R("unstack", lambda x: (np.unstack(x), np.unstack(x, axis=-1)), [((3, 4),), ((2, 3, 4),), ((5,),), ((),),
                                                                    ((0, 3),)]),
    R("rollaxis", lambda x: (np.rollaxis(x, 2), np.rollaxis(x, 0, 3), np.rollaxis(x, 1, 1), np.rollaxis(x, -1, -2),
                             np.rollaxis(x, 1, 3)), [((2, 3, 4),), ((3, 4),)]),
    R("rollaxis_start", lambda x: np.rollaxis(x, 0, 5), [((2, 3, 4),)], dtypes=[np.int64]),
    R("matrix_transpose", lambda x: (np.matrix_transpose(x), np.linalg.matrix_transpose(x)),
      [((3, 4),), ((2, 3, 4),), ((5,),)]),
    R("sliding_window_view", lambda x: (swv(x, (2, 2)), swv(x, (2, 3)), swv(x, 2, axis=0), swv(x, (2, 2), axis=(1, 1)),
                                        swv(x, 1, axis=-1)), [((3, 4),), ((4, 5),), ((1, 4),)]),
    R("unpackbits", lambda x: (np.unpackbits(x), np.unpackbits(x, axis=1, count=-3),
                               np.unpackbits(x, axis=0, count=12, bitorder="little")),
      [((3, 4),), ((2, 1),)], dtypes=[np.uint8, np.int8]),
    R("packbits", lambda x: (np.packbits(x), np.packbits(x, axis=1), np.packbits(x, axis=0, bitorder="little"),
                             np.packbits(x, -1, "big")),
      [((3, 12),), ((2, 1),), ((9, 8),), ((0, 3),)], dtypes=[np.bool_, np.uint8, np.int16, np.float64]),
    R("ix", lambda x: (x[np.ix_(np.abs(x[0]).astype(np.int64) % 3, [0, 2])], np.ix_(x[0] % 3, [1, 3]),
                       np.ix_(x[0]), np.ix_(x[0], [], np.array([True, False, True]))),
      [((3, 4),)], dtypes=[np.int8, np.int64, np.uint16]),
    R("ix_2d", lambda x: np.ix_(x), [((3, 4),)], dtypes=[np.int64]),
    R("diag_indices_from", lambda x: (np.diag_indices_from(x), x[np.diag_indices_from(x)]),
      [((3, 3),), ((2, 2, 2),), ((3, 4),), ((3,),)]),
    R("choose", lambda a, c: (np.choose(a % 3, [c, -c, 2 * c]), np.choose(a, [1, 2.5, c], mode="wrap"),
                              np.choose(a, [c[0], c], mode="clip"), (a % 2).choose([c, c + 1]),
                              np.choose(a[0, 0] % 2, [4, 5]), np.choose(a % 2, c[:2])),
      [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 4), (2, 3))], dtypes=INTS + [np.float64]),
    R("choose_bool", lambda a, c: (np.choose(a % 2, [c, 7]), np.choose(a.astype(bool), [c.astype(np.float32), 3])),
      [((5,), (5,))], dtypes=[np.bool_, np.int32], kinds=("small", "any")),
    R("choose_empty", lambda a: np.choose(a, []), [((3,),)], dtypes=[np.int64]),
    R("put_along_axis", _put_along, [((3, 4),), ((2, 4),)]),
    R("put_along_axis_traced", _put_along_traced, [((3, 4), (3, 4))], dtypes=[np.int32, np.int64],
      kinds=("any", "small")),
    R("put_along_axis_errors", lambda x: np.put_along_axis(x.copy(), np.array([0.0]), 1, axis=0),
      [((3,),)], dtypes=[np.float64]),
    R("fill_diagonal", _fill_diagonal, [((3, 3),), ((5, 3),), ((3, 5),), ((2, 2, 2),), ((3,),), ((2, 3, 2),)]),
    R("ndarray_methods", lambda x, i: (x.take([0, -1]), x.take(np.abs(i).astype(np.intp) % 3, axis=0),
                                       x.take([5, 7], mode="wrap"), x.take([[1, -20]], axis=1, mode="clip"),
                                       x.compress([True, False, True], axis=0)),
      [((3, 4), (2,))], dtypes=[np.int8, np.int64, np.float32, np.float64, np.complex64]),
    R("partition_method", _partition_method, [((3, 6),), ((7,),)], dtypes=REAL_DTYPES),
    R("device", lambda x: (x.device, x.to_device("cpu") + 1, np.zeros(2).to_device("cpu")), [((3,),), ((),)]),
    R("device_errors", lambda x: x.to_device("gpu"), [((3,),)], dtypes=[np.float64]),
]

LINALG = [
    R("linalg_aliases", lambda a, b: (np.linalg.matmul(a, b), np.linalg.outer(a[0], b[1]),
                                      np.linalg.tensordot(a, b, axes=1), np.linalg.tensordot(a, b),
                                      np.linalg.trace(a), np.linalg.trace(a, offset=1),
                                      np.linalg.diagonal(a), np.linalg.diagonal(a, offset=-1),
                                      np.linalg.cross(a, b), np.linalg.cross(a, b, axis=0)),
      [((3, 3), (3, 3)), ((2, 3), (2, 3)), ((2, 3, 3), (2, 3, 3))], dtypes=NUMERIC),
    R("linalg_outer_2d", lambda a, b: np.linalg.outer(a, b), [((2, 2), (2,)), ((2,), (3,))], dtypes=[np.float64]),
    R("linalg_trace_dtype", lambda a: (np.linalg.trace(a, dtype=np.float32), np.linalg.trace(a[None])),
      [((3, 3),), ((3,),)], dtypes=[np.int64, np.float64]),
    R("vecdot", lambda a, b: (np.linalg.vecdot(a, b), np.linalg.vecdot(a, b, axis=0), np.linalg.vecdot(a[0], b[0]),
                              np.linalg.vecdot(a[:, None], b)),
      [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 4), (3, 5))], dtypes=ALL_DTYPES),
    R("tensorsolve_tensorinv", lambda a, b: (np.linalg.tensorsolve(_spd(a).reshape(2, 3, 6), b[:2, :3]),
                                             np.linalg.tensorsolve(_spd(a).reshape(6, 2, 3), b[:2, :3], axes=(0,)),
                                             np.linalg.tensorinv(_spd(a).reshape(6, 2, 3), ind=1),
                                             np.linalg.tensorinv(_spd(a).reshape(2, 3, 2, 3))),
      [((6, 6), (3, 4)), ((6, 6), (2, 2))], dtypes=[np.float32, np.float64, np.complex128], rtol_scale=1000),
    R("tensorsolve_errors", lambda a, b: np.linalg.tensorsolve(a, b), [((2, 3, 4), (2,)), ((2, 3), (2,))],
      dtypes=[np.float64]),
    R("tensorinv_errors", lambda a: np.linalg.tensorinv(a, ind=0), [((2, 2),)], dtypes=[np.float64]),
]

QUERIES = [
    # Callables the coverage report counts that no other record exercised.
    R("covered_elsewhere_untested", lambda x: (np.amin(x), np.amin(x, axis=0), np.asanyarray(x),
                                               np.ascontiguousarray(x.T), np.atleast_1d(x[0, 0]),
                                               np.atleast_2d(x[0]), np.triu_indices_from(x), x.conjugate(),
                                               x.itemsize, x.mT, x.nbytes, x.view()),
      [((3, 4),), ((4, 4),)]),
    R("ifft2", lambda x: (np.fft.ifft2(x), np.fft.ifft2(x, s=(2, 5), norm="ortho")), [((3, 4),)],
      dtypes=[np.float32, np.float64, np.complex64, np.complex128]),
    R("shape_queries", lambda x: (np.ndim(x), np.shape(x), np.size(x), np.size(x, 0), np.size(x, (0, -1)),
                                  np.zeros(np.shape(x)) + np.size(x)), [((3, 4),), ((0, 2),), ((),)]),
    R("dtype_queries", lambda x: (np.astype(x, np.float32), np.astype(x, x.dtype, copy=False),
                                  np.result_type(x, 1.5) == np.float64, np.can_cast(x, np.float64),
                                  np.can_cast(x, np.int8, "same_kind"), np.min_scalar_type(x) == x.dtype,
                                  np.common_type(x, np.ones(2, np.float32)) is np.float64),
      [((3, 4),)]),
    R("apply_along_axis", lambda x: (np.apply_along_axis(np.sum, 0, x), np.apply_along_axis(lambda v: v[::-1] * 2, 1, x),
                                     np.apply_along_axis(lambda v: np.outer(v, v), -1, x),
                                     np.apply_along_axis(lambda v: v[0], 1, x)),
      [((3, 4),), ((2, 3, 2),), ((0, 3),)], dtypes=NUMERIC),
    R("apply_over_axes", lambda x: (np.apply_over_axes(np.sum, x, [0, 2]), np.apply_over_axes(np.cumsum, x, 1),
                                    np.apply_over_axes(np.max, x, -1)),
      [((2, 3, 4),)], dtypes=REAL_DTYPES),
]

MATH = [
    R("cumulative", lambda x: (np.cumulative_sum(x, axis=0), np.cumulative_prod(x, axis=-1, include_initial=True),
                               np.cumulative_sum(x[0], include_initial=True), np.cumulative_sum(x, axis=1, dtype=np.float64),
                               np.cumulative_prod(x[:, 0])),
      [((3, 4),), ((0, 2),)], rtol_scale=10),
    R("cumulative_no_axis", lambda x: np.cumulative_sum(x, include_initial=True), [((5,),), ((),), ((3, 4),)]),
    R("fix", lambda x: (np.fix(x), np.fix(x * 2.5)), [((),), ((9,),), ((3, 4),)], specials=True,
      dtypes=SAMPLED_DTYPES),
    R("i0", lambda x: (np.i0(x), np.i0(x * 4)), [((),), ((9,),), ((3, 4),), ((0,),)], specials=True,
      rtol_scale=20, dtypes=SAMPLED_DTYPES),
    R("sinc", lambda x: (np.sinc(x), np.sinc(x / 3)), [((),), ((9,),), ((3, 4),)], specials=True, rtol_scale=10,
      dtypes=SAMPLED_DTYPES),
    R("complex_predicates", lambda x: (np.iscomplex(x), np.isreal(x), np.iscomplexobj(x), np.isrealobj(x),
                                       np.iscomplex(x + 0j), np.isreal(x * 1j)),
      [((),), ((9,),), ((3, 4),)], dtypes=SAMPLED_DTYPES),
    R("signed_inf", lambda x: (np.isneginf(x), np.isposinf(x)), [((),), ((9,),), ((3, 4),)], specials=True,
      dtypes=SAMPLED_DTYPES),
    R("unwrap", lambda x: (np.unwrap(x), np.unwrap(x * 3, axis=0), np.unwrap(x, discont=4.0),
                           np.unwrap(x, period=4), np.unwrap(x * 10, period=6)),
      [((9,),), ((3, 4),), ((),)], dtypes=[d for d in SAMPLED_DTYPES if np.dtype(d).kind != "c"],
      rtol_scale=10),
    R("sort_complex", lambda x: (np.sort_complex(x), np.sort_complex(x[..., :2])), [((9,),), ((3, 4),), ((),)]),
    R("sort_complex_nan", lambda x: np.sort_complex(np.where(np.abs(x) > 2, x * np.nan, x)), [((4, 9),)],
      dtypes=list(COMPLEX)),
    R("histogram_bin_edges", lambda x, w: (np.histogram_bin_edges(x, bins=4, range=(-1, 2)),
                                           np.histogram_bin_edges(x, [0, 1, 3]), np.histogram_bin_edges(x, 3, weights=w)),
      [((20,), (20,)), ((20,), (5,))], dtypes=[np.int8, np.int64, np.float32, np.float64]),
    R("polynomials", lambda p, q: (np.polyadd(p, q), np.polysub(p, q[:2]), np.polysub(q[0], p), np.polyder(p),
                                   np.polyder(p, 2), np.polyder(p, 0), np.polyint(p), np.polyint(p, 2, k=[1, 2]),
                                   np.polyint(p, 3, k=q[0]), np.polyint(p, 0)),
      [((4,), (3,)), ((1,), (2,))], dtypes=NUMERIC, rtol_scale=10),
    R("polymul", lambda p, q: (np.polymul(np.where(p == 0, 1, p), np.where(q == 0, 2, q)), np.polymul(p[:1], q[-1:]),
                               np.polymul(q[0], np.where(p == 0, 3, p))),
      [((4,), (3,)), ((1,), (2,)), ((2, 2), (2,))], dtypes=NUMERIC, rtol_scale=10),
    R("polyder_errors", lambda p: np.polyder(p, -1), [((3,),)], dtypes=[np.float64]),
    R("polyval2d_grid2d", lambda x, y, c: (P.polyval2d(x, y, c), P.polygrid2d(x, y, c), P.polyval2d(x[0], y[0], c),
                                           P.polygrid2d(x[0], 2.0, c[0]), P.polyval2d(x, y, c[0])),
      [((3,), (3,), (2, 3)), ((3,), (4,), (2, 3))], dtypes=NUMERIC, kinds=("small", "small", "small"),
      rtol_scale=10),
    R("hfft", lambda x: (np.fft.hfft(x), np.fft.hfft(x, 7, axis=0, norm="ortho"), np.fft.ihfft(x.real),
                         np.fft.ihfft(x.real, 3, norm="forward"), np.fft.hfft(x, norm="forward")),
      [((4, 6),), ((1, 3),)], dtypes=[np.int64, np.float32, np.float64, np.complex64, np.complex128],
      rtol_scale=100),
    R("hfft_errors", lambda x: np.fft.hfft(x, norm="bad"), [((4,),)], dtypes=[np.float64]),
    R("poly", lambda r: (np.poly(r), np.poly(r[:1]), np.poly(r[:0])), [((4,),), ((3, 4),)],
      dtypes=REAL_DTYPES, rtol_scale=100),
]

def _safe_add(x):
    return np.add(x, x, out=np.zeros_like(x), where=x > 0)


UFUNC_METHODS = [
    # Reductions of ufuncs without a reduction op: pairs of items where the order does not
    # matter, NumPy's order for lcm.
    R("bitwise_reduce", lambda x: (np.bitwise_or.reduce(x), np.bitwise_xor.reduce(x, axis=-1),
                                   np.bitwise_and.reduce(x, axis=0, keepdims=True),
                                   np.logical_xor.reduce(x, axis=None)),
      [((9,),), ((3, 4),), ((0, 4),), ((5, 0),), ((),)], dtypes=[np.bool_] + INTS),
    R("gcd_lcm_reduce", lambda x: (np.gcd.reduce(x), np.gcd.reduce(x, axis=-1, keepdims=True),
                                   np.lcm.reduce(x, axis=0)),
      [((9,),), ((3, 4),), ((7, 0),)], dtypes=INTS),
    R("fmax_fmin_reduce", lambda x: (np.fmax.reduce(x), np.fmin.reduce(x, axis=-1),
                                     np.fmax.reduce(x, axis=None)),
      [((9,),), ((3, 4),), ((0,),)], dtypes=REAL_DTYPES, specials=True),
    # accumulate of associative ufuncs, reduceat, where= and initial= (issue #26's functions).
    R("extrema_accumulate", lambda x: (np.maximum.accumulate(x), np.minimum.accumulate(x, axis=-1),
                                       np.fmax.accumulate(x)),
      [((9,),), ((3, 4),), ((0,),), ((),)], specials=True),
    R("logical_accumulate", lambda x: (np.logical_or.accumulate(x), np.logical_and.accumulate(x, axis=0)),
      [((9,),), ((3, 4),)], specials=True),
    R("bitwise_accumulate", lambda x: (np.bitwise_xor.accumulate(x), np.bitwise_or.accumulate(x, axis=-1)),
      [((9,),), ((3, 4),)], dtypes=[np.bool_] + INTS),
    R("reduceat", lambda x: (np.add.reduceat(x, [0, 2, 1]), np.maximum.reduceat(x, [0, 3], axis=-1),
                             np.multiply.reduceat(x, [1, 1, 3])),
      [((9,),), ((3, 4),)], rtol_scale=10),
    R("ufunc_where", lambda x: (_safe_add(x), np.multiply(x, 2, out=np.ones_like(x), where=x != 0)),
      [((9,),), ((3, 4),), ((),)], specials=True),
    R("reduction_where", lambda x: (np.sum(x, where=x > 0), np.prod(x, axis=0, where=x != 0),
                                    np.any(x, where=x > 1), np.mean(x, axis=-1, where=x > 0)),
      [((9,),), ((3, 4),)], rtol_scale=10),
    R("extrema_initial", lambda x: (np.max(x, initial=1), np.min(x, axis=0, where=x > 0, initial=5)),
      [((9,),), ((3, 4),), ((0, 4),)], dtypes=REAL_DTYPES),
    R("gradient_coordinates", lambda x: np.gradient(x, np.arange(x.shape[-1]) ** 2, axis=-1),
      [((9,),), ((3, 4),)], dtypes=[np.float16, np.float32, np.float64, np.int64], rtol_scale=10),
]



def _scalar_types(x):
    # NumPy's scalar types called on traced values: a NumPy scalar of a 0-d value, the
    # array cast to the type otherwise.
    s = x.max()     # exact in every dtype (a float32 sum's order is NumPy's own)
    return (np.float64(s), np.float32(s), np.complex128(s), np.bool_(s), np.int64(x.argmax()),
            np.float32(x), np.int16(x.size), np.float64(float(x.max())))


SCALAR_TYPES = [
    R("scalar_types", _scalar_types, [((9,),), ((3, 4),), ((),)], dtypes=REAL_DTYPES,
      rtol_scale=10),
]

EXTRA_RECORDS = MANIP + LINALG + QUERIES + MATH + UFUNC_METHODS + SCALAR_TYPES
