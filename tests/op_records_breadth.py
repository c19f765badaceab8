"""Op records for sorting, statistics, array manipulation, np.linalg and np.fft.

Decompositions with sign or order freedom (qr, svd, eigh, eig) are checked by
their invariants in ``test_linalg.py`` instead.
"""
from __future__ import annotations

import numpy as np

from op_records import NUMERIC, REAL_DTYPES, OpRecord as R

COMPLEX = (np.complex64, np.complex128)
REAL_NUMERIC = [d for d in REAL_DTYPES if d is not np.bool_]
LINALG = [np.int64, np.float32, np.float64, np.complex64, np.complex128]


def _partition_property(x):
    p = np.partition(x, 2)
    q = np.take_along_axis(x, np.argpartition(x, 2), -1)
    kth = np.sort(x)[..., 2]
    return (p[..., 2], np.all(p[..., :2] <= p[..., 2:3]), np.all(p[..., 3:] >= p[..., 2:3]),
            q[..., 2], np.all(q[..., :2] <= q[..., 2:3]), kth)


def _spd(a):
    """A well-conditioned symmetric (Hermitian) positive definite matrix built from ``a``."""
    return a @ np.conj(np.swapaxes(a, -1, -2)) + 4 * np.eye(a.shape[-1], dtype=a.dtype)


SORTING = [
    R("sort", lambda x: (np.sort(x), np.sort(x, axis=0), np.sort(x, axis=None), x.argsort(kind="stable"),
                         np.argsort(x, axis=0, kind="stable"),
                         np.take_along_axis(x, np.argsort(x, kind="stable"), -1),
                         np.sort(x, kind="mergesort")),
      [((3, 4),), ((9,),)], specials=True),
    R("partition", _partition_property, [((3, 6),), ((2, 2, 7),)], dtypes=REAL_DTYPES),
    R("lexsort", lambda a, b: (np.lexsort((a, b)), np.lexsort((b, a, b))), [((9,), (9,))],
      dtypes=REAL_DTYPES),
    R("searchsorted", lambda a, v: (np.searchsorted(np.sort(a), v), np.sort(a).searchsorted(v, "right"),
                                    np.searchsorted(a, v, sorter=np.argsort(a, kind="stable"))),
      [((9,), (3, 4)), ((9,), ())], specials=True, unsupported=COMPLEX),
    R("isin", lambda a, b: (np.isin(a, b), np.isin(a, np.ravel(a)[::3]), np.isin(a, b, invert=True)),
      [((3, 4), (5,)), ((6,), ())]),
    R("digitize", lambda x, b: (np.digitize(x, [0, 1, 2.5]), np.digitize(x, [3, 1, 0], right=True),
                                np.digitize(x, np.sort(b)), np.digitize(x, np.sort(b)[::-1], True)),
      [((3, 4), (5,))], dtypes=REAL_DTYPES, specials=True),
]

def _hyndman_fan_quantiles(x):
    methods = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
               "hazen", "weibull", "median_unbiased", "normal_unbiased")
    qs = ((0.0, None), ([0.1, 0.25, 0.5, 0.9], 1), (1.0, 0), (0.75, -1))
    return tuple(np.quantile(x, q, axis=ax, method=m) for m in methods for q, ax in qs) + (
        np.nanquantile(x, [0.05, 0.5, 1.0], axis=0, method="hazen"),
        np.nanpercentile(x, 30, method="closest_observation"), np.nanquantile(x, 0.99, method="weibull"))


STATS = [
    R("quantile", lambda x: (np.median(x), np.median(x, axis=0), np.quantile(x, 0.3),
                             np.quantile(x, [0.1, 0.9], axis=1, keepdims=True),
                             np.percentile(x, 75, axis=(0, 1)), np.quantile(x, 0.4, method="lower"),
                             np.quantile(x, 0.4, method="higher"), np.quantile(x, 0.5, method="midpoint"),
                             np.quantile(x, 0.5, method="nearest")),
      [((3, 4),), ((2, 3, 4),)], dtypes=REAL_DTYPES, specials=True, rtol_scale=10),
    # Three dtypes: the methods share one path, which the other quantile records sweep.
    R("quantile_hyndman_fan", lambda x: _hyndman_fan_quantiles(x), [((3, 4),), ((1, 5),)],
      dtypes=[np.float64, np.float32, np.int64], specials=True, rtol_scale=10),
    R("nan_quantile", lambda x: (np.nanmedian(x), np.nanmedian(x, axis=1), np.nanquantile(x, [0.2, 0.7], axis=0),
                                 np.nanpercentile(x, 40)), [((3, 4),)], dtypes=REAL_DTYPES, specials=True,
      rtol_scale=10),
    R("nan_reductions", lambda x: (np.nansum(x), np.nansum(x, axis=0), np.nanprod(x, axis=1), np.nanmean(x),
                                   np.nanmean(x, axis=0), np.nanvar(x), np.nanstd(x, axis=1, ddof=1),
                                   np.nancumsum(x), np.nancumprod(x, axis=1)),
      [((3, 4),)], specials=True, rtol_scale=100),
    R("nan_extrema", lambda x: (np.nanmax(x), np.nanmin(x, axis=0), np.nanargmax(x), np.nanargmin(x, axis=0),
                                np.nanargmax(x, axis=1, keepdims=True)),
      [((3, 4),)], specials=True),
    R("count_nonzero", lambda x: (np.count_nonzero(x), np.count_nonzero(x, axis=0),
                                  np.count_nonzero(x, axis=1, keepdims=True)), [((3, 4),)]),
    R("average", lambda x, w: (np.average(x), np.average(x, axis=0), np.average(x, axis=1, weights=w),
                               np.average(x, returned=True), np.average(x, axis=1, weights=w, returned=True),
                               np.average(x, weights=x * 0 + 1)),
      [((3, 4), (4,))], dtypes=NUMERIC, kinds=("any", "small"), rtol_scale=100),
    R("cov_corrcoef", lambda x, y: (np.cov(x), np.cov(x, rowvar=False), np.cov(x[0], x[1]), np.cov(x, bias=True),
                                    np.cov(x, y, ddof=2), np.corrcoef(x), np.corrcoef(x[0], y[1])),
      [((3, 5), (3, 5))], dtypes=NUMERIC, rtol_scale=1000),
    # One row of observations: NumPy's rowvar=False transposes by the array's ndim.
    R("cov_one_row", lambda x: (np.cov(x, rowvar=False, bias=True), np.cov(x.T, ddof=0),
                                np.cov(x, dtype=np.float32)),
      [((1, 4),)], dtypes=[np.int64, np.float32, np.float64], rtol_scale=100),
    R("histogram", lambda x, w: (np.histogram(x, bins=4, range=(-1, 2)), np.histogram(x, bins=[-3, -1, 0, 0.5, 4]),
                                 np.histogram(x, np.sort(w))),
      [((20,), (20,))], dtypes=[np.int8, np.int64, np.uint8, np.float32, np.float64], rtol_scale=100),
    # Data-derived edges may differ from NumPy's in the last bit (TensorFlow may fuse the
    # multiply-add of linspace), so values exactly on an edge are avoided: real-valued data.
    R("histogram_auto", lambda x, w: (np.histogram(x), np.histogram(x, 3, weights=w),
                                      np.histogram(x, 5, density=True)),
      [((20,), (20,))], dtypes=[np.float32, np.float64], rtol_scale=100),
    R("histogram_traced_range", lambda x, w: (np.histogram(x, 4, range=(w.min(), w.max() + 1)),
                                              np.histogram(x, 3, range=(0, abs(w[0]) + 1), density=True),
                                              np.histogram(x, 2, range=(w[0], w[0])), np.histogram(x, 5, (-1, w[1] ** 2))),
      [((20,), (20,))], dtypes=[np.float32, np.float64], rtol_scale=100),
    R("histogram2d_dd", lambda x, w: (np.histogram2d(x[:, 0], x[:, 1]), np.histogram2d(x[:, 0], x[:, 1], (3, 4), density=True),
                                      np.histogram2d(x[:, 0], x[:, 2], 4, [[-1, 1], [-2, 2]], weights=w),
                                      np.histogram2d(x[:, 1], x[:, 2], [np.array([-3.0, 0, 3]), 2]),
                                      np.histogramdd(x, 3), np.histogramdd((x[:, 0], x[:, 1]), (2, 5), density=True)),
      [((30, 3), (30,))], dtypes=[np.int64, np.float32, np.float64], rtol_scale=100),
]

MANIP = [
    R("pad", lambda x: (np.pad(x, 2), np.pad(x, ((1, 0), (2, 3)), constant_values=((1, 2), (3, 4))),
                        np.pad(x, 1, mode="edge"), np.pad(x, (2, 5), mode="reflect"),
                        np.pad(x, ((3, 1), (0, 6)), mode="symmetric"), np.pad(x, 5, mode="wrap")),
      [((2, 3),)]),
    R("pad_linear_ramp", lambda x: (np.pad(x, 2, mode="linear_ramp"),
                                    np.pad(x, (1, 3), mode="linear_ramp", end_values=5),
                                    np.pad(x, 1, mode="linear_ramp", end_values=(2, -1))),
      [((2, 3),), ((5,),), ((0, 2),)]),
    R("pad_statistics", lambda x: (np.pad(x, 2, mode="maximum"), np.pad(x, (1, 3), mode="minimum", stat_length=1),
                                   np.pad(x, 2, mode="mean"), np.pad(x, (3, 1), mode="mean", stat_length=(2, 1)),
                                   np.pad(x, 1, mode="median"), np.pad(x, 2, mode="median", stat_length=3)),
      [((3, 4),), ((5,),)]),
    R("roll_rot90", lambda x: (np.roll(x, 2), np.roll(x, -1, axis=1), np.roll(x, (1, 2), axis=(0, 1)),
                               np.rot90(x), np.rot90(x, 2), np.rot90(x, -1, axes=(1, 0)), np.rot90(x, 3)),
      [((3, 4),)]),
    R("diff", lambda x: (np.diff(x), np.diff(x, n=2, axis=0), np.diff(x, prepend=0), np.diff(x, append=x[:, :1]),
                         np.ediff1d(x)), [((3, 4),)]),
    R("gradient", lambda x: (np.gradient(x), np.gradient(x, 0.5, axis=1), np.gradient(x, edge_order=2),
                             np.gradient(x[0], 2.0)), [((3, 4),)], dtypes=NUMERIC, rtol_scale=10),
    R("cross_kron", lambda a, b: (np.cross(a, b), np.cross(a[:, None], b, axis=-1), np.kron(a, b),
                                  np.kron(a[:2, None], b)), [((3, 3), (3, 3))], dtypes=NUMERIC),
    # 2-element vectors (deprecated in NumPy 2, which computes them): the z component, or
    # a vector whose z component is 0.
    R("cross_2d", lambda a, b: (np.cross(a[:, :2], b[:, :2]), np.cross(a[:, :2], b),
                                np.cross(a, b[:, :2]), np.cross(a[0, :2], b[0, :2])),
      [((4, 3), (4, 3))], dtypes=NUMERIC),
    R("triangles", lambda x: (np.tril(x), np.triu(x, 1), np.tril(x, -1), np.triu(x[0]), np.diag(x),
                              np.diag(x, 1), np.diag(x, -2), np.diag(x[0]), np.diag(x[0], -1), np.diagflat(x[:2, :2]),
                              np.diagonal(x), x.diagonal(1), np.diagonal(np.stack([x, x]), 0, 1, 2)),
      [((3, 4),), ((4, 4),)]),
    R("stacking", lambda x, y: (np.atleast_3d(x), np.atleast_3d(x[0], x[0, 0]), np.column_stack([x[0], y[0]]),
                                np.column_stack([x, y]), np.dstack([x, y]), np.block([[x, y], [y, x]]),
                                np.block([x[0], y[0]])), [((2, 3), (2, 3))]),
    R("creation_grids", lambda x: (np.tri(3), np.tri(3, 4, 1, dtype=int), np.indices((2, 3)), np.tril_indices(3),
                                   np.triu_indices(4, 1, 3), np.tril_indices_from(x), np.meshgrid(x[0], x[1]),
                                   np.meshgrid(x[0], x[1], indexing="ij", sparse=True), np.meshgrid([1, 2], [3, 4, 5]),
                                   np.logspace(0, 2, 5), np.logspace(1, 2, 4, base=2.0, endpoint=False),
                                   np.geomspace(1, 1000, 4), np.geomspace(-1, -16, 5), np.vander(x[0]),
                                   np.vander(x[0], 4, increasing=True)), [((3, 3),)], dtypes=[np.float64, np.int64]),
    R("interp", lambda x, xp, fp: (np.interp(x, np.sort(xp), fp), np.interp(x, np.sort(xp), fp, left=-9, right=9),
                                   np.interp(2.5, [1, 2, 3], [3, 2, 0])),
      [((7,), (5,), (5,))], dtypes=REAL_DTYPES),
    R("convolve", lambda a, v: (np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(v, a, "valid"),
                                np.correlate(a, v), np.correlate(a, v, "full"), np.correlate(v, a, "same")),
      [((6,), (3,)), ((5,), (4,))], dtypes=NUMERIC, rtol_scale=10),
    R("polyval", lambda p, x: (np.polyval(p, x), np.polyval(p[:2], 3)), [((3,), (4,))], dtypes=NUMERIC,
      kinds=("small", "small"), rtol_scale=10),
    R("compare", lambda a, b: (np.isclose(a, b), np.isclose(a, a + 1e-9), np.isclose(a, b, atol=1, equal_nan=True),
                               np.allclose(a, a), np.allclose(a, b), np.array_equal(a, a), np.array_equal(a, b[:1]),
                               np.array_equal(a, a, equal_nan=True), np.array_equiv(a, a[:1]), np.isclose(a[0, 0], 1.0)),
      [((3, 4), (3, 4))], dtypes=NUMERIC, specials=True),
    R("nan_to_num", lambda x: (np.nan_to_num(x), np.nan_to_num(x, nan=-1.0, posinf=9.0)), [((3, 4),)],
      specials=True),
    R("select_piecewise", lambda x: (np.select([x < 0, x > 1], [x, x * 2], default=-1), np.select([x > 0], [x]),
                                     np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]),
                                     np.piecewise(x, [x < 0], [0, lambda v: v + 1])),
      [((3, 4),)], dtypes=[np.int32, np.int64, np.float32, np.float64]),
    R("index_math", lambda i, j: (np.ravel_multi_index((np.abs(i) % 3, np.abs(j) % 4), (3, 4)),
                                  np.ravel_multi_index((i, j), (3, 4), mode="wrap"),
                                  np.ravel_multi_index((i, j), (3, 4), mode="clip", order="F"),
                                  np.unravel_index(np.abs(i) % 12, (3, 4)), np.unravel_index(np.abs(j) % 24, (2, 3, 4), "F")),
      [((5,), (5,))], dtypes=[np.int32, np.int64]),
    R("angle", lambda z: (np.angle(z), np.angle(z, deg=True)), [((9,),)], dtypes=NUMERIC),
    R("trapezoid", lambda y, x: (np.trapezoid(y), np.trapezoid(y, dx=0.5, axis=0), np.trapezoid(y, x[0])),
      [((3, 4), (3, 4))], dtypes=[np.int64, np.float32, np.float64], rtol_scale=10),
]

LINALG_RECORDS = [
    R("linalg_basic", lambda a, b: (np.linalg.inv(_spd(a)), np.linalg.solve(_spd(a), b[0]),
                                    np.linalg.solve(_spd(a), b), np.linalg.det(a), tuple(np.linalg.slogdet(a)),
                                    np.linalg.cholesky(_spd(a)), np.linalg.cholesky(_spd(a), upper=True),
                                    np.linalg.eigvalsh(_spd(a)), np.linalg.eigvalsh(_spd(a), UPLO="U")),
      [((3, 3), (3, 3)), ((2, 3, 3), (2, 3, 3))], dtypes=LINALG, rtol_scale=1000),
    R("linalg_composite", lambda a, b: (np.linalg.pinv(a), np.linalg.matrix_rank(a), np.linalg.matrix_rank(b[0]),
                                        np.linalg.cond(_spd(b)), np.linalg.matrix_power(a[:3], 3),
                                        np.linalg.matrix_power(_spd(b), -2), np.linalg.matrix_power(a[:3], 0),
                                        np.linalg.multi_dot([a, b, b[0]]), np.linalg.svd(a, compute_uv=False),
                                        np.linalg.svdvals(b)),
      [((4, 3), (3, 3))], dtypes=LINALG, rtol_scale=1000),
    R("linalg_norm", lambda a: (np.linalg.norm(a), np.linalg.norm(a, 1), np.linalg.norm(a, -1), np.linalg.norm(a, np.inf),
                                np.linalg.norm(a, -np.inf), np.linalg.norm(a, "fro"), np.linalg.norm(a, "nuc"),
                                np.linalg.norm(a, 2), np.linalg.norm(a, -2), np.linalg.norm(a, axis=0),
                                np.linalg.norm(a, 3, axis=1), np.linalg.norm(a, 0, axis=1),
                                np.linalg.norm(a, keepdims=True), np.linalg.norm(a[0]), np.linalg.norm(a, np.inf, axis=1,
                                                                                                     keepdims=True),
                                np.linalg.matrix_norm(a), np.linalg.vector_norm(a, ord=1)),
      [((3, 4),)], dtypes=[np.int64, np.float32, np.float64, np.complex64, np.complex128], rtol_scale=1000),
    R("lstsq", lambda a, b: (np.linalg.lstsq(a, b, rcond=None), np.linalg.lstsq(a, b[:, 0], rcond=None),
                             np.linalg.lstsq(a.T, b[:3, :2], rcond=None), np.polyfit(a[:, 0], b[:, 0], 2)),
      [((5, 3), (5, 2))], dtypes=[np.float32, np.float64], rtol_scale=1000),
    R("poly1d", lambda c, t: (np.poly1d(c)(t), np.poly1d(c).deriv()(t), np.poly1d(c).integ(k=1.0)(t),
                              (np.poly1d(c) * np.poly1d(c[:2]))(t), (np.poly1d(c) + 1.5)(t), (np.poly1d(c) ** 2)(t),
                              np.poly1d(c).coeffs, np.poly1d(c).order, np.poly1d(c)[1], np.polyval(np.poly1d(c), t),
                              np.poly1d(c * (np.arange(4) > 1))(t), np.poly1d(c * (np.arange(4) > 1)).coeffs),
      [((4,), (3,))], dtypes=[np.int64, np.float32, np.float64]),
    R("polyfit_full_weights", lambda a, b: (np.polyfit(a[:, 0], b[:, 0], 2, full=True),
                                            np.polyfit(a[:, 0], b, 1, w=a[:, 1] ** 2 + 1, full=True),
                                            np.polyfit(a[:, 0], b[:, 0], 1, w=a[:, 2]),
                                            np.polyfit(a[:, 0], b[:, 0], 2, cov=True),
                                            np.polyfit(a[:, 0], b, 1, w=a[:, 1] ** 2 + 1, cov="unscaled")),
      [((6, 3), (6, 2))], dtypes=[np.float32, np.float64], rtol_scale=1000),
]

FFT = [
    R("fft", lambda x: (np.fft.fft(x), np.fft.ifft(x, n=7, axis=0, norm="ortho"), np.fft.rfft(x, n=5),
                        np.fft.irfft(x), np.fft.irfft(x, n=9, norm="forward"), np.fft.irfft(x, n=20),
                        np.fft.fft(x, 3, norm="forward")),
      [((4, 6),)], dtypes=[np.int64, np.float32, np.float64, np.complex64, np.complex128], rtol_scale=100),
    R("fftn", lambda x: (np.fft.fft2(x), np.fft.ifftn(x), np.fft.rfftn(x), np.fft.irfftn(x, s=(4, 6), axes=(0, 1)),
                         np.fft.rfft2(x, norm="ortho"), np.fft.irfft2(x), np.fft.fftn(x, s=(3,), axes=(0,))),
      [((4, 6),)], dtypes=[np.int64, np.float32, np.float64, np.complex64, np.complex128], rtol_scale=100),
    R("fft_helpers", lambda x: (np.fft.fftfreq(6), np.fft.fftfreq(5, 0.1), np.fft.rfftfreq(7, 0.5),
                                np.fft.fftshift(x), np.fft.ifftshift(x, axes=1), np.fft.fftshift(x, axes=0)),
      [((4, 5),)], dtypes=[np.int32, np.float32, np.complex128]),
]

BREADTH_RECORDS = SORTING + STATS + MANIP + LINALG_RECORDS + FFT
